// The HTML Popover API's attributes, which @types/react 18 does not list yet. React 18 renders
// lowercase attributes it does not know as they are written.
import "react";

/* eslint-disable @typescript-eslint/no-unused-vars -- a merged interface must repeat React's type parameter */
declare module "react" {
  interface HTMLAttributes<T> {
    popover?: "auto" | "manual" | "hint";
  }
  interface ButtonHTMLAttributes<T> {
    popovertarget?: string;
    popovertargetaction?: "toggle" | "show" | "hide";
  }
}
