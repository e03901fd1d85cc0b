#!/bin/sh
# arbiterd package: before removing (not on upgrade). The journal in
# /var/lib/arbiterd is kept: it is the record of every game.
set -e
if [ "$1" = "remove" ] && [ -d /run/systemd/system ]; then
  systemctl disable --now arbiterd.service >/dev/null 2>&1 || true
fi
exit 0
