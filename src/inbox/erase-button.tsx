/**
 * Erasure of the enquiry's address: a first call learns how many enquiries go (the API's 409 count),
 * the person confirms that number, which the second call sends back.
 */
import { useState } from "react";
import { ApiError, post } from "./api";
import { useSay } from "./status-message";

export function EraseButton({ id, done }: { id: string; done: () => void }) {
  const say = useSay();
  const [count, setCount] = useState<number | undefined>();
  const ask = async () => {
    try {
      await post(`enquiries/${id}/erase`, {});
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && typeof error.body.count === "number")
        return setCount(error.body.count);
      say(`Not erased: ${(error as Error).message}`, "error");
    }
  };
  const erase = async () => {
    try {
      const answer = await post<{ erased: number }>(`enquiries/${id}/erase`, { confirm: count });
      say(`Erased ${answer.erased} ${answer.erased === 1 ? "enquiry" : "enquiries"} of this address.`);
      done();
    } catch (error) {
      setCount(undefined);
      say(`Not erased: ${(error as Error).message}`, "error");
    }
  };
  if (count === undefined)
    return (
      <button type="button" className="inbox-button-quiet" onClick={ask}>
        Erase…
      </button>
    );
  return (
    <div className="inbox-confirm" role="group" aria-labelledby="erase-question">
      <p id="erase-question">
        Erasing removes {count} {count === 1 ? "enquiry" : "enquiries"} of this address, with their notes and history,
        for good.
      </p>
      <button type="button" className="inbox-button-danger" onClick={erase}>
        Erase {count} {count === 1 ? "enquiry" : "enquiries"}
      </button>
      <button type="button" className="inbox-button-quiet" onClick={() => setCount(undefined)}>
        Cancel
      </button>
    </div>
  );
}
