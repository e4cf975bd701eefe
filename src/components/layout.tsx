import type { ReactNode } from "react";
import { useShellData } from "../hooks/use-shell-data";
import { Shell } from "./shell/shell";
import "../styles/global.css";

/** Every page's frame: the query wrapper around the presentational Shell. */
export function Layout({ children }: { children: ReactNode }) {
  return <Shell data={useShellData()}>{children}</Shell>;
}
