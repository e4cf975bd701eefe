import { Link } from "gatsby";
import type { ReactNode } from "react";
import type { MarkdownBlock, MarkdownInline, MarkdownTree } from "../../types/markdown";

/**
 * The text of an added page, from the tree the build made of its Markdown (src/node/content/
 * markdown-subset.ts): every visitor of such a page downloads this, so it is only a walk over the
 * tree. Text is React text, escaped as such: no HTML reaches the page from the content.
 */
export function Markdown({ tree }: { tree: MarkdownTree }) {
  return <>{tree.map(block)}</>;
}

function block(node: MarkdownBlock, key: number): ReactNode {
  switch (node.t) {
    case "h2":
      return <h2 key={key}>{node.c.map(inline)}</h2>;
    case "h3":
      return <h3 key={key}>{node.c.map(inline)}</h3>;
    case "p":
      return <p key={key}>{node.c.map(inline)}</p>;
    case "ul":
    case "ol": {
      // An entry's text is the entry (no paragraph of its own), unless an entry of this list has several
      // paragraphs: then all its entries' paragraphs stay paragraphs, so the entries look alike.
      const bare = node.items.every((entry) => entry.filter((b) => b.t === "p").length <= 1);
      const items = node.items.map((entry, i) => (
        <li key={i}>{entry.map((b, j) => (bare && b.t === "p" ? b.c.map(inline) : block(b, j)))}</li>
      ));
      return node.t === "ul" ? (
        <ul key={key}>{items}</ul>
      ) : (
        <ol key={key} start={node.start}>
          {items}
        </ol>
      );
    }
  }
}

function inline(node: MarkdownInline, key: number): ReactNode {
  switch (node.t) {
    case "text":
      return node.v;
    case "br":
      return <br key={key} />;
    case "strong":
      return <strong key={key}>{node.c.map(inline)}</strong>;
    case "em":
      return <em key={key}>{node.c.map(inline)}</em>;
    case "link":
      // A page of the site through Gatsby's Link (prefetched, no reload); any other address, as the
      // contact page's website link, in the same tab (so no rel="noopener" is needed).
      return node.href.startsWith("/") ? (
        <Link key={key} to={node.href}>
          {node.c.map(inline)}
        </Link>
      ) : (
        <a key={key} href={node.href}>
          {node.c.map(inline)}
        </a>
      );
  }
}
