package serve

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// fileStore keeps translated files in memory until they are fetched or
// expire, at most max bytes in all: a new file evicts the oldest. Files
// are found by a random name that the store makes, so that no client
// name ever reaches a file system.
type fileStore struct {
	mu    sync.Mutex
	max   int64
	ttl   time.Duration
	now   func() time.Time
	size  int64
	files map[string]*storedFile
	order []string // names, oldest first
}

type storedFile struct {
	name    string // as given to the client to save
	data    []byte
	expires time.Time
}

func newFileStore(max int64, ttl time.Duration) *fileStore {
	return &fileStore{max: max, ttl: ttl, now: time.Now, files: map[string]*storedFile{}}
}

// put stores data under a new name, id.safeName(name), and returns it.
func (fs *fileStore) put(name string, data []byte) (string, error) {
	if int64(len(data)) > fs.max {
		return "", &httpError{http.StatusRequestEntityTooLarge,
			fmt.Sprintf("translated file of %d bytes is larger than the file store (%d bytes, --file-store-bytes)", len(data), fs.max)}
	}
	var id [16]byte
	rand.Read(id[:])
	safe := safeName(name)
	key := hex.EncodeToString(id[:]) + "." + safe
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.expire()
	for fs.size+int64(len(data)) > fs.max {
		fs.remove(fs.order[0])
	}
	fs.files[key] = &storedFile{name: safe, data: data, expires: fs.now().Add(fs.ttl)}
	fs.order = append(fs.order, key)
	fs.size += int64(len(data))
	return key, nil
}

// get returns a stored file, or nil.
func (fs *fileStore) get(key string) *storedFile {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.expire()
	return fs.files[key]
}

// expire drops the files past their time (they are in time order).
func (fs *fileStore) expire() {
	now := fs.now()
	for len(fs.order) > 0 && !now.Before(fs.files[fs.order[0]].expires) {
		fs.remove(fs.order[0])
	}
}

func (fs *fileStore) remove(key string) {
	fs.size -= int64(len(fs.files[key].data))
	delete(fs.files, key)
	for i, k := range fs.order {
		if k == key {
			fs.order = append(fs.order[:i], fs.order[i+1:]...)
			break
		}
	}
}

// safeName is the base of a client's file name with only letters, digits,
// '.', '-' and '_' (others become '_'), no leading dot, at most 100 bytes
// with its extension kept.
func safeName(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	var b strings.Builder
	for _, r := range name {
		switch {
		case r < 128 && (r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.TrimLeft(b.String(), ".")
	if len(s) > 100 {
		ext := path.Ext(s)
		if len(ext) > 20 {
			ext = ""
		}
		s = s[:100-len(ext)] + ext
	}
	if s == "" || s == "_" {
		s = "file"
	}
	return s
}
