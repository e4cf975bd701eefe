import { render, screen } from "@testing-library/react";
import type { IGatsbyImageData } from "gatsby-plugin-image";
import { Picture } from "../../src/components/content/picture";

/** Image data shaped as gatsby-transformer-sharp returns it (WebP source, JPEG fallback). */
function imageData(layout: IGatsbyImageData["layout"], width: number, height: number): IGatsbyImageData {
  return {
    layout,
    width,
    height,
    backgroundColor: "#d8e8e8",
    images: {
      fallback: {
        src: `/static/abc/${width}/banner.jpg`,
        srcSet: `/static/abc/750/banner.jpg 750w,/static/abc/${width}/banner.jpg ${width}w`,
        sizes: "100vw",
      },
      sources: [
        {
          type: "image/webp",
          srcSet: `/static/abc/750/banner.webp 750w,/static/abc/${width}/banner.webp ${width}w`,
          sizes: "100vw",
        },
      ],
    },
  };
}

describe("Picture", () => {
  it("renders the WebP source and the fallback with its size, so the browser picks and reserves it", () => {
    const { container } = render(<Picture image={imageData("fullWidth", 1920, 640)} alt="Clinical trial team" />);
    const img = screen.getByRole("img", { name: "Clinical trial team" });
    expect(img).toHaveAttribute("src", "/static/abc/1920/banner.jpg");
    expect(img).toHaveAttribute("srcset", "/static/abc/750/banner.jpg 750w,/static/abc/1920/banner.jpg 1920w");
    expect(img).toHaveAttribute("sizes", "100vw");
    expect(img).toHaveAttribute("width", "1920");
    expect(img).toHaveAttribute("height", "640");
    expect(img).toHaveAttribute("decoding", "async");
    const source = container.querySelector("picture > source");
    expect(source).toHaveAttribute("type", "image/webp");
    expect(source).toHaveAttribute("srcset", "/static/abc/750/banner.webp 750w,/static/abc/1920/banner.webp 1920w");
    expect(source).toHaveAttribute("sizes", "100vw");
    // The box keeps the image's proportions and shows its dominant colour before it arrives.
    const box = container.firstElementChild as HTMLElement;
    expect(box.style.aspectRatio).toBe("1920 / 640");
    expect(box.style.backgroundColor).toBe("rgb(216, 232, 232)");
  });

  it("is lazy without priority by default, eager with high priority when asked", () => {
    render(
      <>
        <Picture image={imageData("fullWidth", 1920, 640)} alt="below the fold" />
        <Picture image={imageData("fullWidth", 1920, 640)} alt="banner" loading="eager" priority />
      </>,
    );
    const lazy = screen.getByRole("img", { name: "below the fold" });
    expect(lazy).toHaveAttribute("loading", "lazy");
    expect(lazy).not.toHaveAttribute("fetchpriority");
    const eager = screen.getByRole("img", { name: "banner" });
    expect(eager).toHaveAttribute("loading", "eager");
    expect(eager).toHaveAttribute("fetchpriority", "high");
  });

  it("caps a constrained image at its width and gives a fixed one its exact size", () => {
    const { container } = render(
      <>
        <Picture image={imageData("constrained", 560, 420)} alt="constrained" className="extra" />
        <Picture image={imageData("fixed", 48, 48)} alt="" />
      </>,
    );
    const [constrained, fixed] = Array.from(container.children) as HTMLElement[];
    expect(constrained?.style.maxWidth).toBe("560px");
    expect(constrained?.className).toContain("extra");
    expect(fixed?.style.width).toBe("48px");
    expect(fixed?.style.height).toBe("48px");
    // An empty alt makes the image decorative: no img role for assistive technology.
    expect(screen.queryByRole("img", { name: "" })).toBeNull();
  });
});
