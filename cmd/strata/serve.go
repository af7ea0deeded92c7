package main

import (
	"fmt"
	"log/slog"
	"net"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/serve"
)

func init() {
	var models, trained []string
	var dataDir, addr, lidModel string
	var logJSON bool
	o := serve.Defaults()
	cmd := &cobra.Command{
		Use:   "serve --model RUN [--model RUN2 ...] [--addr localhost:8080]",
		Short: "Serve translations over HTTP (JSON and LibreTranslate APIs, metrics, a page to try it)",
		Long: `Loads a model once and answers translation requests; docs/serving.md has
the API and the options in full.

  curl -s localhost:8080/translate -d '{"text": ["Hello world."], "src_lang": "en", "tgt_lang": "de"}'
  curl -s localhost:8080/translate -d '{"q": "Hello world.", "source": "en", "target": "de"}'

Lines of concurrent requests with the same direction and search options are
decoded together (up to --batch-tokens, waiting at most --batch-wait) by
--decoders decoders of --threads compute threads each, which with
--time-share (the default) the batches being decoded take in turns, one
decoding step at a time, least-served requests first. GET / is a page to
try the model, POST /detect LibreTranslate's language detection, POST
/translate_file its file translation (.txt, .po, .xliff, .html; the result
kept for --file-ttl at GET /download_file/NAME), GET /frontend/settings its
client settings, /metrics Prometheus metrics, /health and /ready liveness
and readiness. LibreTranslate's format "html" translates a page sentence by
sentence with its markup kept. SIGTERM or SIGINT stops accepting connections, finishes the
requests already taken (up to --drain-timeout) and exits 0; a second signal
exits at once.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			decode.TightGC() // as translate: peak memory under load (docs/serving.md)
			b, err := decode.LoadEnsemble(models, dataDir)
			if err != nil {
				return err
			}
			if err := setTrainedDirections(b, trained); err != nil {
				return err
			}
			if o.LID, _, err = loadIdentifier(lidModel, cmd.ErrOrStderr()); err != nil {
				return err
			}
			var h slog.Handler = slog.NewTextHandler(cmd.ErrOrStderr(), nil)
			if logJSON {
				h = slog.NewJSONHandler(cmd.ErrOrStderr(), nil)
			}
			s, err := serve.New(b, o, slog.New(h))
			if err != nil {
				return err
			}
			// cmd.Context() ends at the first SIGINT or SIGTERM (signals.go):
			// the server drains and returns nil, so the exit status is 0
			return s.ListenAndServe(cmd.Context(), addr, func(a net.Addr) {
				fmt.Fprintf(cmd.ErrOrStderr(), "serving %s (%s) on http://%s\n", b.Name(), b.Model.Config().Summary(), a)
			})
		},
	}
	fl := cmd.Flags()
	modelFlags(cmd, &models, &dataDir, nil)
	trainedDirectionsFlag(cmd, &trained)
	computeFlags(fl, &o.Search)
	fl.StringVar(&addr, "addr", "localhost:8080", "listen address (port 0: any free port)")
	fl.StringVar(&lidModel, "lid-model", "", "language ID of outputs and LibreTranslate's source \"auto\": "+lidRuleHelp)
	fl.IntVar(&o.Workers, "decoders", o.Workers, "decoders computing at once, the CPU slots (0: one per core, or cores / --threads)")
	fl.BoolVar(&o.TimeShare, "time-share", o.TimeShare, "run a standby decoder beside each, and let batches take the CPU in turns, one decoding step at a time, least-served requests first (false: a batch keeps its core to its end; half the decoder memory)")
	fl.DurationVar(&o.TimeShareQuantum, "time-share-quantum", o.TimeShareQuantum, "with --time-share, the decoding time a batch may use beyond the least-served waiting batch before handing its slot over (0: at every step; batches shorter than it run to their end)")
	fl.IntVar(&o.Threads, "threads", 0, "compute threads of each decoder (0: 1 with the default --decoders, else the cores divided among the decoders)")
	fl.IntVar(&o.Search.Beam, "beam", o.Search.Beam, "default beam size")
	fl.IntVar(&o.MaxBeam, "max-beam", o.MaxBeam, "largest beam a request may ask for")
	fl.Float64Var(&o.Search.MaxLenA, "max-len-a", o.Search.MaxLenA, "outputs have at most a·source length + b tokens")
	fl.IntVar(&o.Search.MaxLenB, "max-len-b", o.Search.MaxLenB, "see --max-len-a")
	fl.Float64Var(&o.Search.LenPen, "lenpen", o.Search.LenPen, "length penalty")
	fl.IntVar(&o.Search.RepeatStop, "repeat-stop", o.Search.RepeatStop, fmt.Sprintf("end an output once its last N tokens (at least 3 blocks) repeat one block of 1-%d tokens (0: off)", decode.MaxRepeatBlock))
	fl.IntVar(&o.BatchTokens, "batch-tokens", o.BatchTokens, "source tokens per batch across requests")
	fl.DurationVar(&o.BatchWait, "batch-wait", o.BatchWait, "longest a line waits for others to fill its batch")
	fl.BoolVar(&o.Off, "no-batching", false, "decode each request on its own, as they come (for comparison)")
	fl.IntVar(&o.BatchRequestLines, "batch-request-lines", o.BatchRequestLines, "lines one request may put in a batch (longer requests are split)")
	fl.IntVar(&o.MaxRows, "max-rows", o.MaxRows, "decoder rows (sentences × beam) per decoding step: bounds the decoder caches")
	fl.IntVar(&o.MaxStateTokens, "max-state-tokens", o.MaxStateTokens, "decoder rows × output positions per decoding step: bounds the caches whatever the lengths")
	fl.IntVar(&o.QueueLines, "queue-lines", o.QueueLines, "lines that may wait; a request that would overflow gets 503")
	fl.IntVar(&o.MaxLines, "max-lines", o.MaxLines, "lines per request")
	fl.IntVar(&o.MaxLineLen, "max-line-bytes", o.MaxLineLen, "bytes per line")
	fl.IntVar(&o.MaxSrcTokens, "max-src-len", o.MaxSrcTokens, fmt.Sprintf("truncate longer sources, in subword tokens with tag and EOS (at most %d)", decode.HardMaxSrcLen))
	fl.Int64Var(&o.MaxBody, "max-body-bytes", o.MaxBody, "bytes per request body")
	fl.Int64Var(&o.FileStoreBytes, "file-store-bytes", o.FileStoreBytes, "bytes of translated files kept for /download_file; a new file evicts the oldest")
	fl.DurationVar(&o.FileTTL, "file-ttl", o.FileTTL, "how long a translated file can be fetched from /download_file")
	fl.DurationVar(&o.Timeout, "timeout", o.Timeout, "per-request deadline, queueing included (504 after it)")
	fl.DurationVar(&o.DrainTimeout, "drain-timeout", o.DrainTimeout, "how long shutdown waits for requests taken")
	fl.BoolVar(&o.LogText, "log-text", false, "log request and output text (not logged by default)")
	fl.BoolVar(&logJSON, "log-json", false, "log JSON lines instead of key=value text")
	rootCmd.AddCommand(cancelsCleanly(aliases(cmd, map[string]string{"workers": "decoders"})))
}
