#!/bin/sh
# arbiterd package: after installing or upgrading.
set -e
# The service runs as arbiterd, in the dialout group that may open serial
# ports (the udev rules give DGT adapters to that group).
if ! getent passwd arbiterd >/dev/null; then
  useradd --system --gid dialout --home-dir /var/lib/arbiterd --no-create-home \
    --shell /usr/sbin/nologin --comment "arbiterd daemon" arbiterd
fi
# The journal: the service's own, kept when the package is removed.
install -d -o arbiterd -g dialout -m 0750 /var/lib/arbiterd
if command -v udevadm >/dev/null 2>&1; then
  udevadm control --reload >/dev/null 2>&1 || true
  udevadm trigger --subsystem-match=tty >/dev/null 2>&1 || true
fi
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload >/dev/null 2>&1 || true
  # An upgrade restarts a running service (every capture is synced on the
  # way out and unfinished games go on); a new install waits for the
  # configuration to be edited: systemctl enable --now arbiterd
  if [ "$1" = "configure" ] && [ -n "$2" ]; then
    systemctl try-restart arbiterd.service >/dev/null 2>&1 || true
  fi
fi
exit 0
