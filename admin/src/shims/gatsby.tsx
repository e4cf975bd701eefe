/**
 * `gatsby` in the studio's bundle: the site's views import Link from it, and nothing else runs there.
 * A preview is a picture of the page, so a link is a plain anchor (as __tests__/support/gatsby-mock.tsx).
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

export const withPrefix = (path: string): string => path;
export const navigate = (): void => undefined;
