// Package xliff reads XLIFF 1.2 and 2.0 documents (source/target pairs,
// their state, inline elements) and writes translations back into them.
// Writing splices the new <target> elements and state attributes into the
// bytes read, so everything else (other namespaces, notes, skeletons,
// layout) stays byte for byte. encoding/xml does the parsing; the
// splicing is written here because no Go XML library writes a document
// back unchanged.
package xliff
