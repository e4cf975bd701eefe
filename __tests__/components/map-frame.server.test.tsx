/**
 * @jest-environment node
 */
import { renderToStaticMarkup } from "react-dom/server";
import { MapFrame } from "../../src/components/views/map-frame";

const props = { title: "Our Location", src: "https://www.openstreetmap.org/export/embed.html?bbox=1" };

test("the server HTML holds the frame only inside <noscript>, so it is fetched only without JavaScript", () => {
  const html = renderToStaticMarkup(<MapFrame {...props} />);
  expect(html).toMatch(
    /^<noscript><iframe title="Our Location" src="https:\/\/www\.openstreetmap\.org\/[^"]+" loading="lazy" referrerPolicy="no-referrer"><\/iframe><\/noscript>$/i,
  );
});
