#!/usr/bin/env bash
# Make sure PostgreSQL and NATS (with JetStream) answer on their local ports.
# Starts the machine's own installs if they are present but stopped; otherwise
# stops with a message saying exactly how to get them.
set -euo pipefail
PGHOST_=${PGHOST:-127.0.0.1}; PGPORT_=${PGPORT:-5432}
NATS_HOST=${NATS_HOST:-127.0.0.1}; NATS_PORT=${NATS_PORT:-4222}

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
wait_port() { for _ in $(seq 1 60); do port_open "$1" "$2" && return 0; sleep 0.5; done; return 1; }

if ! port_open "$PGHOST_" "$PGPORT_"; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "PostgreSQL is not answering on $PGHOST_:$PGPORT_; starting the local cluster…"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    wait_port "$PGHOST_" "$PGPORT_" || { echo "PostgreSQL did not come up on $PGHOST_:$PGPORT_." >&2; exit 1; }
  else
    cat >&2 <<MSG
PostgreSQL is not reachable on $PGHOST_:$PGPORT_ and no local install was found.
Install and start it, for example on Debian/Ubuntu:
  sudo apt-get install -y postgresql && sudo pg_ctlcluster \$(ls /etc/postgresql) main start
and allow trust (or set DATABASE_URL) for user postgres on 127.0.0.1.
MSG
    exit 1
  fi
fi

if ! port_open "$NATS_HOST" "$NATS_PORT"; then
  if command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ]; then
    bin=$(command -v nats-server || echo /usr/sbin/nats-server)
    echo "NATS is not answering on $NATS_HOST:$NATS_PORT; starting $bin with JetStream…"
    mkdir -p /var/lib/nats-server 2>/dev/null || true
    sd=/var/lib/nats-server; [ -w "$sd" ] || sd="${TMPDIR:-/tmp}/lineage-nats"; mkdir -p "$sd"
    start-stop-daemon --start --oknodo --background --exec "$bin" -- -a "$NATS_HOST" -p "$NATS_PORT" -js -sd "$sd" -l "${TMPDIR:-/tmp}/lineage-nats.log" 2>/dev/null \
      || nohup "$bin" -a "$NATS_HOST" -p "$NATS_PORT" -js -sd "$sd" >"${TMPDIR:-/tmp}/lineage-nats.log" 2>&1 &
    wait_port "$NATS_HOST" "$NATS_PORT" || { echo "NATS did not come up on $NATS_HOST:$NATS_PORT." >&2; exit 1; }
  else
    cat >&2 <<MSG
NATS is not reachable on $NATS_HOST:$NATS_PORT and no nats-server binary was found.
Install it (Debian/Ubuntu: sudo apt-get install -y nats-server) and start it with JetStream:
  nats-server -a 127.0.0.1 -p 4222 -js
MSG
    exit 1
  fi
fi
echo "PostgreSQL $PGHOST_:$PGPORT_ and NATS $NATS_HOST:$NATS_PORT are reachable."
