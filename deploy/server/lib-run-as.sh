# shellcheck shell=bash
# Sourced, never run, by root's scripts that run the live release's code as its user: backup and
# doctor (/usr/local/lib/cyrus/, beside this file) and the owner's command cyrus (/usr/local/sbin/).
# Installed root-owned (644) by deploy/server/setup as /usr/local/lib/cyrus/lib-run-as.sh from its
# own copy; each finds it beside itself (cyrus: in ../lib/cyrus/ when installed).
#
# The release's code is another user's, and root hands it nothing of its own: it runs with setpriv
# (none of root's groups), in a session of its own (no terminal of root's to push keystrokes into with
# TIOCSTI), under env -i with only the environment its unit gives: the unit's Environment= lines and
# its settings file, both read here as KEY=VALUE lines, never run.

# KEY=VALUE lines (a value in quotes loses them), as systemd reads an EnvironmentFile=; never run.
env_lines() {
  local line key value
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    [[ $line =~ ^([A-Za-z_][A-Za-z0-9_]*)=(.*)$ ]] || continue
    key=${BASH_REMATCH[1]}
    value=${BASH_REMATCH[2]}
    if [[ $value =~ ^\'(.*)\'$ ]] || [[ $value =~ ^\"(.*)\"$ ]]; then value=${BASH_REMATCH[1]}; fi
    printf '%s=%s\n' "$key" "$value"
  done
}

# A unit file's Environment= lines, as KEY=VALUE; and the program its ExecStart= runs (its Node).
unit_env() { sed -n 's/^Environment=//p' -- "$1" | sed 's/^"\(.*\)"$/\1/' | env_lines; }
unit_node() { sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' -- "$1" | head -n 1; }

# The command in a session of its own, waited for: its exit status returned, stdin the caller's, the
# signals this shell gets (Ctrl-C, a closed terminal), which no longer reach it from the terminal,
# handed on. Started from a subshell, as a simple command started in the background would ignore
# SIGINT and SIGQUIT.
in_own_session() { # command args...
  local child status forwarded signal
  (exec setsid --wait "$@") <&0 &
  child=$!
  for signal in INT TERM HUP QUIT; do
    # shellcheck disable=SC2064 # the child and the signal, now
    trap "forwarded=1; kill -s $signal $child 2>/dev/null || true" "$signal"
  done
  while :; do
    forwarded=0
    status=0
    wait "$child" || status=$?
    [ "$forwarded" = 1 ] || break
  done
  trap - INT TERM HUP QUIT
  return "$status"
}
