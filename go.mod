module github.com/strata-nmt/strata

go 1.26.8

require (
	github.com/ebitengine/purego v0.11.3
	github.com/spf13/cobra v1.10.2
	golang.org/x/sys v0.50.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
)
