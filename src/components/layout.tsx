// First import, so the global rules open every page's stylesheet and the components' rules follow.
import "../styles/global.css";
import type { ReactNode } from "react";
import { useShellData } from "../hooks/use-shell-data";
import { Shell } from "./shell/shell";

/** Every page's frame: the query wrapper around the presentational Shell. */
export function Layout({ children }: { children: ReactNode }) {
  return <Shell data={useShellData()}>{children}</Shell>;
}
