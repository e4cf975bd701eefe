/**
 * Stand-in for the `gatsby` module in Jest: Link renders a plain anchor with the same href, so tests
 * can assert the URLs a visitor would follow; graphql and useStaticQuery are never reached by
 * presentational components, which take plain props.
 */
import { forwardRef, type AnchorHTMLAttributes } from "react";

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & {
  to: string;
  activeClassName?: string;
  partiallyActive?: boolean;
};

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, activeClassName: _active, partiallyActive: _partial, ...rest },
  ref,
) {
  // The content comes in rest.children.
  // eslint-disable-next-line jsx-a11y/anchor-has-content
  return <a ref={ref} href={to} {...rest} />;
});

export const navigate = jest.fn();
export const graphql = jest.fn();
export const useStaticQuery = jest.fn(() => {
  throw new Error("useStaticQuery is not available in unit tests: render the presentational component");
});
export const withPrefix = (path: string): string => path;
