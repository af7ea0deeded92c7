package corpus

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Package is one fetched Debian binary package.
type Package struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	Architecture string `json:"architecture"`
	SHA256       string `json:"sha256"`
	Size         int64  `json:"size"`
	// File is the .deb on disk (not in the manifest: it is a cache path).
	File string `json:"-"`
}

// WalkFunc is called for each regular file of a package's data archive;
// name is the path without its leading "./" or "/".
type WalkFunc func(name string, size int64, r io.Reader) error

// Source fetches packages and reads their files.
type Source interface {
	// Fetch fetches the named packages into dir; want maps a name to the
	// version to fetch ("" for the candidate version). A package that
	// does not exist is reported in missing, not as an error.
	Fetch(ctx context.Context, want map[string]string, dir string) (got []Package, missing []string, err error)
	// Walk calls fn for every regular file of pkg.
	Walk(ctx context.Context, pkg Package, fn WalkFunc) error
}

// Apt fetches with `apt-get download` (no installation, no root needed
// beyond reading apt's lists; run `apt-get update` first) and reads the
// data archive with `dpkg-deb --fsys-tarfile`, which knows every
// compression dpkg accepts (xz, zstd, gzip), so none needs reimplementing.
type Apt struct {
	// Log receives apt-get's diagnostics; nil discards them.
	Log io.Writer
}

// Fetch runs apt-get download for the packages apt knows and reads each
// .deb's control fields. Names apt does not know are returned as missing.
func (a Apt) Fetch(ctx context.Context, want map[string]string, dir string) ([]Package, []string, error) {
	names := sortedKeys(want)
	have, err := describeDebs(ctx, dir, names)
	if err != nil {
		return nil, nil, err
	}
	cached := map[string]bool{}
	for _, p := range have {
		if v := want[p.Name]; v == "" || v == p.Version {
			cached[p.Name] = true
		}
	}
	a.logf("corpus: %d packages wanted, %d already in %s; asking apt for the others' versions (apt-cache policy)\n", len(names), len(cached), dir)
	known, err := a.known(ctx, names)
	if err != nil {
		return nil, nil, err
	}
	var args, missing []string
	for _, n := range names {
		if cached[n] {
			continue
		}
		if !known[n] {
			missing = append(missing, n)
			continue
		}
		if v := want[n]; v != "" {
			args = append(args, n+"="+v)
		} else {
			args = append(args, n)
		}
	}
	if len(args) == 0 {
		return keep(have, cached), missing, nil
	}
	a.logf("corpus: downloading %d packages into %s (apt-get download)\n", len(args), dir)
	cmd := exec.CommandContext(ctx, "apt-get", append([]string{"download", "-q"}, args...)...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("apt-get download: %v\n%s", err, stderr.String())
	}
	if a.Log != nil {
		io.WriteString(a.Log, stderr.String())
	}
	got, err := describeDebs(ctx, dir, names)
	if err != nil {
		return nil, nil, err
	}
	fetched := map[string]bool{}
	for _, p := range got {
		if v := want[p.Name]; v == "" || v == p.Version {
			fetched[p.Name] = true
		}
	}
	return keep(got, fetched), missing, nil
}

// logf writes a progress line when the source has a log.
func (a Apt) logf(format string, args ...any) {
	if a.Log != nil {
		fmt.Fprintf(a.Log, format, args...)
	}
}

// keep returns the packages whose name is in names.
func keep(pkgs []Package, names map[string]bool) []Package {
	var out []Package
	for _, p := range pkgs {
		if names[p.Name] {
			out = append(out, p)
			names[p.Name] = false // one file per package even if the cache holds two versions
		}
	}
	return out
}

// known says which packages apt has a candidate version for, with one
// apt-cache call.
func (a Apt) known(ctx context.Context, names []string) (map[string]bool, error) {
	out, err := exec.CommandContext(ctx, "apt-cache", append([]string{"policy"}, names...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("apt-cache policy: %v", err)
	}
	known := map[string]bool{}
	name := ""
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, " ") && strings.HasSuffix(line, ":") {
			name = strings.TrimSuffix(line, ":")
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Candidate: "); ok && v != "(none)" {
			known[name] = true
		}
	}
	return known, nil
}

// describeDebs names and hashes the .deb files in dir that belong to the
// wanted packages. Name, version and architecture come from the file
// name, which apt-get download writes as NAME_VERSION_ARCH.deb with the
// version's colon escaped as %3a.
func describeDebs(_ context.Context, dir string, names []string) ([]Package, error) {
	wanted := map[string]bool{}
	for _, n := range names {
		wanted[n] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.deb"))
	if err != nil {
		return nil, err
	}
	var got []Package
	for _, f := range files {
		fields := strings.Split(strings.TrimSuffix(filepath.Base(f), ".deb"), "_")
		if len(fields) != 3 || !wanted[fields[0]] {
			continue
		}
		version, err := url.PathUnescape(fields[1])
		if err != nil {
			return nil, fmt.Errorf("%s: version in the file name: %v", f, err)
		}
		sum, size, err := hashFile(f)
		if err != nil {
			return nil, err
		}
		got = append(got, Package{Name: fields[0], Version: version, Architecture: fields[2], SHA256: sum, Size: size, File: f})
	}
	sort.Slice(got, func(i, j int) bool { return got[i].Name < got[j].Name })
	return got, nil
}

// Walk streams the package's data archive through dpkg-deb.
func (a Apt) Walk(ctx context.Context, pkg Package, fn WalkFunc) error {
	cmd := exec.CommandContext(ctx, "dpkg-deb", "--fsys-tarfile", pkg.File)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("dpkg-deb: %w", err)
	}
	werr := walkTar(out, fn)
	io.Copy(io.Discard, out) // let dpkg-deb finish when fn stopped early
	if err := cmd.Wait(); err != nil && werr == nil {
		werr = fmt.Errorf("dpkg-deb --fsys-tarfile %s: %v: %s", pkg.File, err, stderr.String())
	}
	if werr != nil {
		return fmt.Errorf("%s: %w", pkg.Name, werr)
	}
	return nil
}

// walkTar calls fn for every regular file of a tar stream.
func walkTar(r io.Reader, fn WalkFunc) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(h.Name, "./"), "/")
		if err := fn(name, h.Size, tr); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
