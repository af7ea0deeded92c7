package main

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/sys/cpu"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/engine/blas"
	"github.com/strata-nmt/strata/engine/mpi"
	"github.com/strata-nmt/strata/internal/buildinfo"
)

func init() {
	rootCmd.AddCommand(&cobra.Command{
		Use:   "env",
		Short: "Print the machine and compute backend strata will use",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, args []string) {
			w := cmd.OutOrStdout()
			be := blas.Default()
			fmt.Fprintf(w, "strata        %s\n", buildinfo.Version())
			fmt.Fprintf(w, "go            %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
			fmt.Fprintf(w, "cpu features  %s\n", cpuFeatures())
			fmt.Fprintf(w, "kernels       %s\n", engine.ISA())
			fmt.Fprintf(w, "              (STRATA_ISA=%s caps every kernel family at that instruction set)\n", strings.Join(engine.ISAs(), "|"))
			fmt.Fprintf(w, "threads       %d (GOMAXPROCS), %d CPUs\n", runtime.GOMAXPROCS(0), runtime.NumCPU())
			fmt.Fprintf(w, "matmul        %s, %d threads\n", be.Name(), be.Threads())
			fmt.Fprintln(w, "              (STRATA_BLAS=go forces the pure-Go fallback; STRATA_BLAS=/path/lib.so picks a CBLAS)")
			fmt.Fprintf(w, "f32 inference %s\n", engine.F32Kernel())
			fmt.Fprintln(w, "              (decoding's products against packed weights; STRATA_SGEMM=blas forces OpenBLAS)")
			fmt.Fprintf(w, "f32 training  forward and dY·W on the kernel above; dYᵀ·X on %s\n", engine.GradWKernel())
			fmt.Fprintf(w, "int8 matmul   %s\n", engine.Int8KernelFor(8))
			fmt.Fprintf(w, "              %s (--int8-bits 7)\n", engine.Int8KernelFor(7))
			fmt.Fprintln(w, "              (--compute-type int8)")
			if lib := mpi.Library(); lib != "" {
				fmt.Fprintf(w, "mpi           Open MPI (%s): mpirun -np N strata train ... trains data-parallel\n", lib)
			} else {
				fmt.Fprintln(w, "mpi           no Open MPI libmpi (apt-get install openmpi-bin libopenmpi3 for data-parallel training)")
			}
		},
	})
}

func cpuFeatures() string {
	var f []string
	add := func(ok bool, name string) {
		if ok {
			f = append(f, name)
		}
	}
	switch runtime.GOARCH {
	case "amd64", "386":
		add(cpu.X86.HasSSE42, "sse4.2")
		add(cpu.X86.HasAVX, "avx")
		add(cpu.X86.HasAVX2, "avx2")
		add(cpu.X86.HasFMA, "fma")
		add(cpu.X86.HasAVX512F, "avx512f")
		add(cpu.X86.HasAVX512VL, "avx512vl")
		add(cpu.X86.HasAVX512VNNI, "avx512vnni")
		add(cpu.X86.HasAVXVNNI, "avxvnni")
		add(cpu.X86.HasAVX512BF16, "avx512bf16")
	case "arm64":
		add(cpu.ARM64.HasASIMD, "asimd")
		add(cpu.ARM64.HasSVE, "sve")
		add(cpu.ARM64.HasFPHP, "fp16")
	}
	if len(f) == 0 {
		return "(none detected)"
	}
	return strings.Join(f, " ")
}
