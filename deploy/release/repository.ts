/**
 * The repository setting (RELEASE_REPO) split from its credential. A token written into the URL
 * (https://user:token@host/owner/site.git) must reach neither a command line (every user of the
 * server reads /proc/<pid>/cmdline) nor the mirror's config (a file that outlives the release): git
 * is given the URL without it, and asks a credential helper for it. The helper is a few lines of
 * shell in git's own configuration, passed with -c, that print the credential from the environment
 * of that git process, which only the release user can read (/proc/<pid>/environ is its owner's).
 */

export interface Credential {
  username: string;
  password: string;
}

export interface Repository {
  /** The URL (or path) without credentials: what git's command lines and the mirror's config hold. */
  url: string;
  credential?: Credential;
}

// Names of the variables the helper reads (set on git's processes only).
const USERNAME = "RELEASE_GIT_USERNAME";
const PASSWORD = "RELEASE_GIT_PASSWORD";

// git runs it with `sh -c`, with "get", "store" or "erase" as its argument; it answers "get" only
// (printf is the shell's own, so the credential is on no command line there either).
const HELPER = `!f() { if test "$1" = get; then printf 'username=%s\\npassword=%s\\n' "$${USERNAME}" "$${PASSWORD}"; fi; }; f`;

/**
 * Splits RELEASE_REPO. Only http(s) URLs carry a credential: an ssh URL is signed in with the release
 * user's key, and a password in one is refused (git would keep it in the mirror's config). No
 * message here repeats the value, which may hold the token.
 */
export function parseRepository(value: string): Repository {
  const userinfo = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)@/i.exec(value);
  if (!userinfo) return { url: value };
  const [, scheme = "", info = ""] = userinfo;
  if (!/^https?$/i.test(scheme)) {
    if (info.includes(":"))
      throw new Error(
        `RELEASE_REPO: a ${scheme} URL cannot carry a password (git would keep it); use the release user's SSH key, or an https URL with a token`,
      );
    return { url: value };
  }
  let url: URL;
  let credential: Credential;
  try {
    url = new URL(value);
    credential = { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  } catch {
    throw new Error("RELEASE_REPO is not a valid URL (a user or token with @, : or / in it is written %40, %3A, %2F)");
  }
  if (/[\0\r\n]/.test(`${credential.username}${credential.password}`))
    throw new Error("RELEASE_REPO: its user or token holds a line break");
  url.username = "";
  url.password = "";
  return { url: url.href, credential };
}

/**
 * What a git command that talks to the repository needs: the helper (args before the command) and
 * the environment it reads. Other helpers are switched off for it (`credential.helper=` first), so
 * that none, such as a `store` in the release user's ~/.gitconfig, writes the credential to a file;
 * the helper answers for the repository's own origin only, so a redirect elsewhere gets nothing.
 * GIT_TERMINAL_PROMPT=0: a missing or refused credential fails at once instead of waiting for a
 * person who is not there.
 */
export function credentialFor(repo: Repository): { args: string[]; env: Record<string, string> } {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: "0" };
  if (!repo.credential) return { args: [], env };
  const { origin } = new URL(repo.url);
  return {
    args: ["-c", "credential.helper=", "-c", `credential.${origin}.helper=${HELPER}`],
    env: { ...env, [USERNAME]: repo.credential.username, [PASSWORD]: repo.credential.password },
  };
}
