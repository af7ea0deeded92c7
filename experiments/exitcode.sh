# Sourced by the recipes (experiments/*/): what a failed command's exit
# status means, for the log line that reports it.

# exit_words RC: the exit status in words where it says more than a number.
# 137 is SIGKILL, which an unattended training mostly gets from the kernel's
# out-of-memory killer; the kernel log names the victim and its size.
exit_words() {
	case $1 in
	137) echo "exit 137: killed by SIGKILL, usually the out-of-memory killer (dmesg | grep -i 'out of memory'); strata train --micro-batches runs a batch in less memory" ;;
	139) echo "exit 139: a segmentation fault" ;;
	*) echo "exit $1" ;;
	esac
}
