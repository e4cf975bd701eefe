import { act, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { MapFrame } from "../../src/components/views/map-frame";

afterEach(() => {
  document.body.innerHTML = "";
});

const props = { title: "Our Location", src: "https://www.openstreetmap.org/export/embed.html?bbox=1" };

test("in the browser the frame is added once the page has loaded", () => {
  const readyState = jest.spyOn(document, "readyState", "get").mockReturnValue("interactive");
  try {
    render(<MapFrame {...props} />);
    expect(screen.queryByTitle("Our Location")).toBeNull();
    readyState.mockReturnValue("complete");
    act(() => {
      window.dispatchEvent(new Event("load"));
    });
    const frame = screen.getByTitle("Our Location");
    expect(frame.tagName).toBe("IFRAME");
    expect(frame.getAttribute("src")).toBe(props.src);
    expect(frame.getAttribute("referrerpolicy")).toBe("no-referrer");
  } finally {
    readyState.mockRestore();
  }
});

test("on a page that has already loaded (client-side navigation) the frame is there at once", () => {
  render(<MapFrame {...props} />);
  expect(screen.getByTitle("Our Location").tagName).toBe("IFRAME");
});

describe("its island on the server HTML (the built site)", () => {
  test("adds the frame in place of the <noscript> copy once the page has loaded, not before", () => {
    const readyState = jest.spyOn(document, "readyState", "get").mockReturnValue("interactive");
    try {
      const container = islandOnLoad();
      expect(screen.queryByTitle("Our Location")).toBeNull();
      expect(container.querySelector("noscript")).not.toBeNull();
      readyState.mockReturnValue("complete");
      window.dispatchEvent(new Event("load"));
      const frame = screen.getByTitle("Our Location");
      expect(frame.tagName).toBe("IFRAME");
      expect(frame.getAttribute("src")).toBe(props.src);
      expect(frame.getAttribute("loading")).toBe("lazy");
      expect(frame.getAttribute("referrerpolicy")).toBe("no-referrer");
      expect(container.querySelector("noscript")).toBeNull();
    } finally {
      readyState.mockRestore();
    }
  });

  test("on a page that has already loaded, at once", () => {
    islandOnLoad();
    expect(screen.getByTitle("Our Location").tagName).toBe("IFRAME");
  });
});

/** The frame's server HTML in a box, with the island run on it (it marks itself ready only once it added the frame). */
function islandOnLoad(): HTMLElement {
  const container = document.createElement("div");
  container.innerHTML = renderToString(<MapFrame {...props} />);
  document.body.append(container);
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an island runs when its module is loaded
    require("../../src/islands/map");
  });
  return container;
}
