/**
 * One live region for the inbox's status messages (saved, conflicts, errors): screen readers hear each
 * as it comes, sighted people see it at the top. Polite, so it never cuts a reader off mid-sentence.
 */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";

export interface Message {
  text: string;
  kind: "info" | "error";
}
type Say = (text: string, kind?: Message["kind"]) => void;

const SayContext = createContext<Say>(() => undefined);

export const useSay = () => useContext(SayContext);

/** Says `text` once, as it is first shown: a notice carried over from the page before. */
export function Notice({ text }: { text: string }) {
  const say = useSay();
  useEffect(() => say(text), [say, text]);
  return null;
}

export function StatusMessages({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<Message | undefined>();
  const say = useCallback<Say>((text, kind = "info") => setMessage({ text, kind }), []);
  return (
    <SayContext.Provider value={say}>
      <div className="inbox-status" role="status" aria-live="polite" data-kind={message?.kind}>
        {message?.text}
      </div>
      {children}
    </SayContext.Provider>
  );
}
