#!/bin/sh
# The redis-cluster-init service of docker-compose.scale.yml: once every node answers, joins them
# into one Redis Cluster, the first half masters and the second half their replicas, and waits
# until every node reports the cluster ok, so the apps (which start after this exits 0) find every
# slot served. On a later `docker compose up` the cluster is already formed and it exits at once.
set -eu

nodes="${REDIS_CLUSTER_INIT_NODES:?set REDIS_CLUSTER_INIT_NODES: the nodes, host:port separated by spaces}"

cluster_ok() {
  redis-cli -h "${1%:*}" -p "${1##*:}" cluster info 2>/dev/null | grep -q '^cluster_state:ok'
}

first="${nodes%% *}"
if cluster_ok "$first"; then
  echo "the cluster is already formed"
  exit 0
fi

addresses=""
for node in $nodes; do
  until [ "$(redis-cli -h "${node%:*}" -p "${node##*:}" ping 2>/dev/null)" = "PONG" ]; do
    echo "waiting for $node"
    sleep 1
  done
  # redis-cli hands each node to CLUSTER MEET, which takes an address, not a host name.
  set -- $(getent ahostsv4 "${node%:*}") ""
  [ -n "$1" ] || { echo "cannot resolve ${node%:*}" >&2; exit 1; }
  addresses="$addresses $1:${node##*:}"
done

# shellcheck disable=SC2086 # one argument per node
redis-cli --cluster create $addresses --cluster-replicas 1 --cluster-yes

for node in $nodes; do
  until cluster_ok "$node"; do
    echo "waiting for $node to see every slot served"
    sleep 1
  done
done
echo "the cluster is formed"
