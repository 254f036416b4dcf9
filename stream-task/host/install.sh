#!/usr/bin/env bash
# Turns a bare Debian server into an ECS Anywhere host of a Loopcast stage's streams cluster: the external data plane
# (docs/deploy.md, "Stream hosts"). Run as root on the server, with an SSM activation made for the stage's host role
# (the Streaming stack's outputs give both commands):
#
#   ./install.sh --region eu-central-1 --cluster loopcast-prod-streams \
#     --activation-id <id> --activation-code <code> --max-streams 120 [--ssh-port 22] [--no-firewall]
#
# What it does, in order:
#  1. the ECS agent's settings (/etc/ecs/ecs.config), among them the memory ECS may not place tasks in, so that at
#     most --max-streams stream tasks fit (each reserves STREAM_TASK_MEMORY_MIB, lambdas/contract/data-planes.ts);
#  2. a firewall (nftables, a table of its own): nothing comes in but SSH and replies, everything may go out;
#  3. AWS's ECS Anywhere installer, its signature checked: the SSM agent registered with the activation, Docker, the
#     ECS agent joined to the cluster. From then on ECS places stream tasks here.
# `--print-config` prints the agent settings and the firewall rules it would write, and changes nothing.
set -euo pipefail

# What one stream task reserves (externalStreamTask.memoryReservationMiB in lambdas/contract/data-planes.ts; a test
# checks they agree).
STREAM_TASK_MEMORY_MIB=192
# Left to Debian, Docker, the SSM and ECS agents whatever --max-streams says.
SYSTEM_MEMORY_MIB=1024
# AWS's ECS Anywhere installer and the key it is signed with (the ECS Anywhere documentation names both).
INSTALLER_URL=https://amazon-ecs-agent.s3.amazonaws.com/ecs-anywhere-install-latest.sh
INSTALLER_KEY=BCE9D9A42D51784F

usage() {
  sed -n '5,6p' "$0" | sed 's/^#   //'
  exit 2
}

region='' cluster='' activation_id='' activation_code='' max_streams='' ssh_port=22 firewall=true print_only=false
while [ $# -gt 0 ]; do
  case "$1" in
    --region) region=${2:-}; shift 2 ;;
    --cluster) cluster=${2:-}; shift 2 ;;
    --activation-id) activation_id=${2:-}; shift 2 ;;
    --activation-code) activation_code=${2:-}; shift 2 ;;
    --max-streams) max_streams=${2:-}; shift 2 ;;
    --ssh-port) ssh_port=${2:-}; shift 2 ;;
    --no-firewall) firewall=false; shift ;;
    --print-config) print_only=true; shift ;;
    *) echo "unknown option: $1" >&2; usage ;;
  esac
done
[[ "$max_streams" =~ ^[1-9][0-9]*$ ]] || { echo '--max-streams must be a whole number: the stream tasks this host may carry (docs/deploy.md)' >&2; usage; }
[[ "$ssh_port" =~ ^[1-9][0-9]*$ ]] || { echo '--ssh-port must be a port number' >&2; usage; }
if ! $print_only; then
  for required in region cluster activation_id activation_code; do
    [ -n "${!required}" ] || { echo "--${required//_/-} is required" >&2; usage; }
  done
fi

# ---- 1. The ECS agent's settings ----

# MemTotal in MiB (LOOPCAST_MEMINFO: another meminfo file, for the test).
total_mib=$(( $(awk '/^MemTotal:/ { print $2 }' "${LOOPCAST_MEMINFO:-/proc/meminfo}") / 1024 ))
fits=$(( (total_mib - SYSTEM_MEMORY_MIB) / STREAM_TASK_MEMORY_MIB ))
if [ "$fits" -lt "$max_streams" ]; then
  echo "This host has ${total_mib} MiB of memory: room for ${fits} stream tasks (${STREAM_TASK_MEMORY_MIB} MiB each, ${SYSTEM_MEMORY_MIB} MiB for the system), not ${max_streams}." >&2
  exit 1
fi
# ECS places tasks while their reservations fit the memory the agent registers (MemTotal less this).
reserved_mib=$(( total_mib - max_streams * STREAM_TASK_MEMORY_MIB ))

ecs_config() {
  cat <<CONFIG
# Loopcast stream host (stream-task/host/install.sh): at most ${max_streams} stream tasks.
ECS_RESERVED_MEMORY=${reserved_mib}
# A restart runs the image already here; a deploy's new image has a new tag and is pulled.
ECS_IMAGE_PULL_BEHAVIOR=prefer-cached
# A stopped task's container (with the video it downloaded) is removed after 10 minutes, not 3 hours.
ECS_ENGINE_TASK_CLEANUP_WAIT_DURATION=10m
ECS_DISABLE_PRIVILEGED=true
CONFIG
}

# ---- 2. The firewall ----

firewall_rules() {
  cat <<RULES
# Loopcast stream host (stream-task/host/install.sh). Nothing needs to reach this host: the SSM and ECS agents and
# the stream tasks only dial out (AWS over HTTPS, the task API, RTMP destinations on whatever port a creator gives).
table inet loopcast_host {}
delete table inet loopcast_host
table inet loopcast_host {
  chain input {
    type filter hook input priority filter; policy drop;
    ct state established,related accept
    ct state invalid drop
    iifname "lo" accept
    # Containers reach the ECS agent's task metadata endpoint (169.254.170.2, sent to the agent on this host): a
    # stream task learns its task ARN there, the name it holds its run's lease by.
    iifname "docker0" accept
    meta l4proto { icmp, ipv6-icmp } accept
    tcp dport ${ssh_port} accept
  }
}
RULES
}

if $print_only; then
  echo "## /etc/ecs/ecs.config"
  ecs_config
  echo "## /etc/loopcast/host-firewall.nft"
  firewall_rules
  exit 0
fi

[ "$(id -u)" -eq 0 ] || { echo 'run this as root' >&2; exit 1; }
. /etc/os-release
[ "${ID:-}" = debian ] || echo "warning: this script is written for Debian; this is ${PRETTY_NAME:-an unknown system}" >&2

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends ca-certificates curl gnupg nftables

mkdir -p /etc/ecs
if [ -f /etc/ecs/ecs.config ]; then sed -i '/^# Loopcast stream host/,$d' /etc/ecs/ecs.config; fi
ecs_config >>/etc/ecs/ecs.config

if $firewall; then
  mkdir -p /etc/loopcast
  firewall_rules >/etc/loopcast/host-firewall.nft
  nft -c -f /etc/loopcast/host-firewall.nft
  # Its own unit, not nftables.service: Debian's /etc/nftables.conf starts with `flush ruleset`, which would also
  # remove Docker's rules whenever that service restarts.
  cat >/etc/systemd/system/loopcast-host-firewall.service <<'UNIT'
[Unit]
Description=Loopcast stream host firewall (nothing comes in but SSH)
Wants=network-pre.target
Before=network-pre.target docker.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/sbin/nft -f /etc/loopcast/host-firewall.nft
ExecStop=/usr/sbin/nft delete table inet loopcast_host

[Install]
WantedBy=multi-user.target
UNIT
  systemctl daemon-reload
  systemctl enable --now loopcast-host-firewall.service
fi

# ---- 3. AWS's installer: SSM agent (registered with the activation), Docker, ECS agent ----

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl --proto '=https' --fail --silent --show-error -o "$work/install.sh" "$INSTALLER_URL"
curl --proto '=https' --fail --silent --show-error -o "$work/install.sh.asc" "$INSTALLER_URL.asc"
export GNUPGHOME="$work/gnupg"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --keyserver hkps://keyserver.ubuntu.com --recv-keys "$INSTALLER_KEY"
gpg --batch --verify "$work/install.sh.asc" "$work/install.sh"
bash "$work/install.sh" --region "$region" --cluster "$cluster" --activation-id "$activation_id" --activation-code "$activation_code"

echo "This host is registered into ${cluster} for at most ${max_streams} stream tasks. Check it with:"
echo "  aws ecs list-container-instances --region ${region} --cluster ${cluster} --filter \"attribute:ecs.os-type == linux\""
