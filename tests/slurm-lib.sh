# slurm-lib.sh - a one-node Slurm cluster for the tests, on this host:
# munged, slurmctld and slurmd with their key, configuration, state, logs
# and sockets in a private directory. Source it after lib.sh.
#
#   slurm_start DIR   start the cluster (DIR: new or empty, made 0755); sets
#                     SLURM_CONF so sbatch, squeue and scontrol find it.
#                     Returns non-zero (with slurm_why set) if it cannot.
#   slurm_stop        stop the daemons by pid, wait for them to go.
#
# Without systemd as PID 1: proctrack/linuxproc, task/none, and the cgroup
# plugin that /sys/fs/cgroup shows (cgroup/v2 on a pure v2 hierarchy, else
# cgroup/v1), as the Slurm packaged with Debian 12 (22.05) needs one.

slurm_pids=
slurm_why=

# slurm_have: 0 if the daemons and client commands are installed.
slurm_have() {
	for tool in munged slurmctld slurmd sbatch squeue scontrol; do
		command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || {
			slurm_why="no '$tool' (Debian packages munge, slurmctld, slurmd, slurm-client)"
			return 1
		}
	done
}

# slurm_free_port: print a TCP port from 20000 on that nothing listens on.
slurm_free_port() {
	p=${1:-20000}
	while [ "$p" -lt 30000 ]; do
		hex=$(printf '%04X' "$p")
		if ! awk -v h=":$hex" '$2 ~ h"$" && $4 == "0A" { f = 1 } END { exit !f }' \
			/proc/net/tcp /proc/net/tcp6 2>/dev/null; then
			echo "$p"
			return 0
		fi
		p=$((p + 1))
	done
	return 1
}

# slurm_wait_file FILE SECONDS: wait until FILE exists.
slurm_wait_file() {
	i=0
	while [ ! -e "$1" ] && [ "$i" -lt "$(($2 * 10))" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$1" ]
}

slurm_start() {
	d=$1
	slurm_have || return 1
	PATH=$PATH:/usr/sbin
	mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log"
	chmod 755 "$d"
	# munge: a private 1024-byte key, readable by munge alone
	head -c 1024 /dev/urandom >"$d/munge/munge.key"
	chown -R munge:munge "$d/munge"
	chmod 700 "$d/munge"
	chmod 400 "$d/munge/munge.key"
	munged --key-file="$d/munge/munge.key" --socket="$d/munge/munge.socket" \
		--pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" \
		--seed-file="$d/munge/munged.seed" --force \
		2>"$d/log/munged.err" || {
		slurm_why="munged does not start: $(cat "$d/log/munged.err" "$d/munge/munged.log" 2>/dev/null | tail -3)"
		return 1
	}
	slurm_wait_file "$d/munge/munged.pid" 10 || { slurm_why="munged wrote no pid"; return 1; }
	slurm_pids="$(cat "$d/munge/munged.pid")"
	if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
		cg=cgroup/v2
	else
		cg=cgroup/v1
	fi
	host=$(hostname -s)
	mem=$(awk '/^MemTotal:/ { print int($2 / 1024 / 2) }' /proc/meminfo)
	ctld_port=$(slurm_free_port 20000) && d_port=$(slurm_free_port $((ctld_port + 1))) || {
		slurm_why="no free TCP port"
		return 1
	}
	cat >"$d/slurm.conf" <<EOF
ClusterName=benchorchtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SchedulerParameters=sched_interval=1
MessageTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=bench Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	echo "CgroupPlugin=$cg" >"$d/cgroup.conf"
	SLURM_CONF=$d/slurm.conf
	export SLURM_CONF
	slurmctld -f "$SLURM_CONF" -i 2>"$d/log/slurmctld.err" || {
		slurm_why="slurmctld does not start: $(tail -3 "$d/log/slurmctld.err" "$d/log/slurmctld.log" 2>/dev/null)"
		return 1
	}
	slurm_wait_file "$d/slurmctld.pid" 10 && slurm_pids="$slurm_pids $(cat "$d/slurmctld.pid")"
	slurmd -f "$SLURM_CONF" 2>"$d/log/slurmd.err" || {
		slurm_why="slurmd does not start: $(tail -3 "$d/log/slurmd.err" "$d/log/slurmd.log" 2>/dev/null)"
		return 1
	}
	slurm_wait_file "$d/slurmd.pid" 10 && slurm_pids="$slurm_pids $(cat "$d/slurmd.pid")"
	# the node is up when sinfo calls it idle
	i=0
	while [ "$i" -lt 300 ]; do
		state=$(sinfo -h -N -o '%t' 2>/dev/null | head -1)
		[ "$state" = idle ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	slurm_why="the node did not come up (state '$state'): $(tail -3 "$d/log/slurmd.log" 2>/dev/null)"
	return 1
}

slurm_stop() {
	for pid in $slurm_pids; do
		kill "$pid" 2>/dev/null
	done
	for pid in $slurm_pids; do
		i=0
		while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null
	done
	slurm_pids=
}
