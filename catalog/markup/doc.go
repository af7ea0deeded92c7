// Package markup cuts an HTML document into translation units, one a
// sentence, and writes the document back with their translations.
//
// A unit is a sentence, not a text node: inline elements inside it (a,
// em, strong, span, b, i, code and the other phrasing elements, nested to
// any depth) travel with it as sentinel pairs of package placeholder, so
// that "<a><em>View the complete range of</em> <em>drawer systems</em></a>"
// is one unit and the model sees the whole sentence. Block elements,
// comments and the document's other markup separate units. The alt and
// title attributes are units of their own. Everything else is written back
// byte for byte: tags and their other attributes, scripts, styles, pre,
// textarea, svg, math, and any element marked translate="no".
//
// A translation is refused (its unit stays in the source language) when
// it lost, duplicated or invented a sentinel, or moved an element out of
// the element that held it: the written document always has the input's
// element tree, only sibling inline elements may change places.
package markup
