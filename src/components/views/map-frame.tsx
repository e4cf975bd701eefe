import { useEffect, useState } from "react";
import { useBehaviour } from "../../hooks/use-behaviour";

export interface MapFrameProps {
  title: string;
  src: string;
}

/**
 * The contact page's map, a page of another host (openstreetmap.org) in a frame. The frame is added
 * once the page itself has loaded, so the other host's document, scripts and tiles never compete
 * with the page's first paint and main image (with the frame in the HTML, Lighthouse put First and
 * Largest Contentful Paint of /contact at 1.4 s on mobile, against 0.7 and 0.9 s on the other
 * pages). Without JavaScript the <noscript> copy in the HTML shows instead. The frame's box (the
 * `.map` container) has a fixed aspect ratio, so nothing moves when it arrives.
 */
export function MapFrame({ title, src }: MapFrameProps) {
  useBehaviour("map");
  const [pageLoaded, setPageLoaded] = useState(false);
  useEffect(() => {
    if (document.readyState === "complete") {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- the page's load state exists only in the browser
      setPageLoaded(true);
      return undefined;
    }
    const onLoad = () => setPageLoaded(true);
    window.addEventListener("load", onLoad);
    return () => window.removeEventListener("load", onLoad);
  }, []);
  const frame = <iframe title={title} src={src} loading="lazy" referrerPolicy="no-referrer" />;
  return pageLoaded ? frame : <noscript>{frame}</noscript>;
}
