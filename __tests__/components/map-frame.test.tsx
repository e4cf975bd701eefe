import { act, render, screen } from "@testing-library/react";
import { MapFrame } from "../../src/components/views/map-frame";

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
