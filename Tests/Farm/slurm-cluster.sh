#!/usr/bin/env bash
# A single-node Slurm cluster for tests: `slurm-cluster.sh up DIR` starts munged, slurmctld and slurmd with
# their config and state under DIR; `slurm-cluster.sh down DIR` stops them. Needs root (slurmd, munge user).
# Facts this relies on (measured on the CI machines):
# - ProctrackType=proctrack/linuxproc: with cgroup tracking jobs never run, are reported COMPLETED, and the
#   node drains.
# - No systemd: daemons are started in the foreground (-D) in the background and stopped by PID.
# - Stale state (a DRAIN) survives restarts, so the state directories are cleared first.
set -euo pipefail
cmd=${1:?usage: slurm-cluster.sh up|down DIR}
dir=$(realpath -m "${2:?usage: slurm-cluster.sh up|down DIR}")
conf=/etc/slurm/slurm.conf

stop() {
  for p in slurmd slurmctld munged; do
    if [ -f "$dir/$p.pid" ]; then kill "$(cat "$dir/$p.pid")" 2>/dev/null || true; rm -f "$dir/$p.pid"; fi
  done
  sleep 0.5
}

case "$cmd" in
down) stop; exit 0 ;;
up) ;;
*) echo "usage: slurm-cluster.sh up|down DIR" >&2; exit 2 ;;
esac

stop
rm -rf "$dir/state" "$dir/spool"
mkdir -p "$dir/state" "$dir/spool" /etc/slurm /run/munge /var/log/munge /var/lib/munge /etc/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge /etc/munge
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown munge:munge /etc/munge/munge.key
chmod 400 /etc/munge/munge.key
if [ -f "$conf" ] && ! grep -q "written by segue slurm-cluster.sh" "$conf"; then
  echo "slurm-cluster.sh: $conf exists and was not written by this script; not touching it" >&2
  exit 1
fi
cat > "$conf" <<CONF
# written by segue slurm-cluster.sh (test cluster)
ClusterName=segue-test
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
JobRequeue=1
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.daemon.pid
SlurmdPidFile=$dir/slurmd.daemon.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
NodeName=localhost CPUs=$(nproc) State=UNKNOWN
PartitionName=segue Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF

setpriv --reuid=munge --regid=munge --clear-groups /usr/sbin/munged --foreground >"$dir/munged.log" 2>&1 &
echo $! > "$dir/munged.pid"
for _ in $(seq 50); do munge -n >/dev/null 2>&1 && break; sleep 0.1; done
/usr/sbin/slurmctld -D -i >"$dir/slurmctld.out" 2>&1 &
echo $! > "$dir/slurmctld.pid"
/usr/sbin/slurmd -D -N localhost >"$dir/slurmd.out" 2>&1 &
echo $! > "$dir/slurmd.pid"
for _ in $(seq 100); do
  state=$(sinfo -h -N -o %t 2>/dev/null | head -1 || true)
  [ "$state" = idle ] && { echo "slurm-cluster.sh: localhost idle ($(nproc) CPUs)"; exit 0; }
  sleep 0.2
done
echo "slurm-cluster.sh: the node did not come up (state: ${state:-none}); logs in $dir" >&2
tail -5 "$dir"/slurmctld.log "$dir"/slurmd.log >&2 || true
exit 1
