package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := WriteFile(p, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("second")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "second" {
		t.Fatalf("got %q", b)
	}
	assertOnlyFile(t, dir, "out.txt")
}

func TestFailedWriteLeavesOldFileAndNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := WriteFile(p, []byte("keep")); err != nil {
		t.Fatal(err)
	}
	err := WriteWith(p, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return errors.New("boom")
	})
	if err == nil {
		t.Fatal("expected error")
	}
	b, _ := os.ReadFile(p)
	if string(b) != "keep" {
		t.Fatalf("old content lost: %q", b)
	}
	assertOnlyFile(t, dir, "out.txt")
}

func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != name {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("directory holds %v, want only %s", names, name)
	}
}

func TestModeIsReadableOrKept(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new.txt")
	if err := WriteFile(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Fatalf("new file mode %v, want 0644", st.Mode().Perm())
	}
	os.Chmod(p, 0o600)
	if err := WriteFile(p, []byte("y")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Fatalf("replaced file mode %v, want the old 0600", st.Mode().Perm())
	}
}

// Writing into a directory that does not exist names the file and the
// directory, not the temporary file the user never chose.
func TestMissingDirectoryIsNamed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nowhere")
	p := filepath.Join(dir, "out.png")
	err := WriteFile(p, []byte("x"))
	want := "write " + p + ": directory " + dir + " does not exist"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}
