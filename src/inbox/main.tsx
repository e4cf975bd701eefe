/** The inbox's entry: /inbox/welcome/ creates a passkey from an invitation, every other path is the inbox. */
import { createRoot } from "react-dom/client";
import "./inbox.css";
import { App } from "./app";
import { Welcome } from "./welcome";

const root = document.getElementById("inbox");
if (root) {
  const welcome = /^\/inbox\/welcome\/?$/.test(window.location.pathname);
  createRoot(root).render(welcome ? <Welcome /> : <App />);
}
