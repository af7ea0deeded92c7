package corpus

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// blockElements are the Mallard and DocBook elements whose text is one
// translation unit (what itstool extracts as one message).
var blockElements = map[string]bool{
	"p": true, "title": true, "desc": true, "subtitle": true, "comment": true,
	"para": true, "simpara": true, "term": true, "entry": true,
}

// xmlBlocks returns the text of each block element of a help page, in
// document order, skipping subtrees marked its:translate="no". Inline
// markup is flattened into its text; a block nested in a block belongs to
// the outer one.
func xmlBlocks(r io.Reader) ([]string, error) {
	d := xml.NewDecoder(r)
	d.Strict = false // DocBook pages use DTD entities; HTML's are known
	d.Entity = xml.HTMLEntity
	var blocks []string
	var cur strings.Builder
	inBlock, skip := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return blocks, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case skip > 0 || noTranslate(t):
				skip++
			case inBlock > 0:
				inBlock++
			case blockElements[t.Name.Local]:
				inBlock = 1
				cur.Reset()
			}
		case xml.EndElement:
			switch {
			case skip > 0:
				skip--
			case inBlock > 0:
				if inBlock--; inBlock == 0 {
					blocks = append(blocks, cur.String())
				}
			}
		case xml.CharData:
			if inBlock > 0 && skip == 0 {
				cur.Write(t)
			}
		}
	}
}

func noTranslate(t xml.StartElement) bool {
	for _, a := range t.Attr {
		if a.Name.Local == "translate" && a.Value == "no" {
			return true
		}
	}
	return false
}

// paragraph is a LibreOffice help paragraph: its id (par_id..., hd_id...)
// is the same in every language's page.
type paragraph struct{ ID, Text string }

// htmlParagraphs returns the elements of a LibreOffice help page whose id
// starts with par_id or hd_id, with their text (inline markup flattened).
func htmlParagraphs(r io.Reader) ([]paragraph, error) {
	z := html.NewTokenizer(r)
	var out []paragraph
	var cur strings.Builder
	var id, tag string
	depth := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				return out, nil
			}
			return nil, z.Err()
		case html.StartTagToken:
			t := z.Token()
			if depth > 0 {
				if t.Data == tag {
					depth++
				}
				continue
			}
			for _, a := range t.Attr {
				if a.Key == "id" && (strings.HasPrefix(a.Val, "par_id") || strings.HasPrefix(a.Val, "hd_id")) {
					id, tag, depth = a.Val, t.Data, 1
					cur.Reset()
				}
			}
		case html.EndTagToken:
			if depth > 0 && z.Token().Data == tag {
				if depth--; depth == 0 {
					out = append(out, paragraph{ID: id, Text: cur.String()})
				}
			}
		case html.TextToken:
			if depth > 0 {
				cur.Write(z.Text())
			}
		}
	}
}
