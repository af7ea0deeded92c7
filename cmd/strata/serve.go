package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/serve"
)

func init() {
	var models []string
	var dataDir, addr string
	o := serve.Options{Workers: 1, Search: decode.Defaults()}
	o.Search.MaxLenA, o.Search.MaxLenB = 1.2, 10
	cmd := &cobra.Command{
		Use:   "serve --model RUN [--model RUN2 ...] [--addr :8080]",
		Short: "Serve translations over HTTP (POST /translate, GET /health)",
		Long: `Loads a model once and answers JSON requests:

  curl -s localhost:8080/translate -d '{"text": ["Hello world."], "src_lang": "en", "tgt_lang": "de"}'

Requests may set "beam", "pivot" and "alignment" (word alignments in
"alignments", as translate --alignment). --decoders decoders run in parallel,
each with --threads kernel threads; further requests wait their turn.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := decode.LoadEnsemble(models, dataDir)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			s, err := serve.New(ctx, b, o)
			if err != nil {
				return err
			}
			srv := &http.Server{Addr: addr, Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
			go func() {
				<-ctx.Done()
				shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				srv.Shutdown(shut)
			}()
			fmt.Fprintf(cmd.ErrOrStderr(), "serving %s (%s) on %s\n", b.Name(), b.Model.Config().Summary(), addr)
			if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	fl := cmd.Flags()
	modelFlags(cmd, &models, &dataDir, nil)
	fl.StringVar(&addr, "addr", "localhost:8080", "listen address")
	fl.IntVar(&o.Workers, "decoders", o.Workers, "decoders running in parallel, each answering one request at a time")
	fl.IntVar(&o.Threads, "threads", 0, "compute threads of each decoder (0: all cores)")
	fl.IntVar(&o.Search.Beam, "beam", o.Search.Beam, "default beam size")
	fl.IntVar(&o.MaxLines, "max-lines", 256, "lines per request")
	computeFlags(fl, &o.Search)
	rootCmd.AddCommand(cancelsCleanly(aliases(cmd, map[string]string{"workers": "decoders"})))
}
