// Package placeholder protects the parts of a localisable string that a
// translation must carry unchanged: printf directives (%s, %1$d, %.250s,
// %<PRIuMAX>), Python %(name)s and {name}/{0}, ICU messages such as
// {count, plural, one {# file} other {# files}} (one unit, braces balanced),
// shell $VAR and ${VAR}, XML/HTML tags, comments and entities. Mask replaces
// each by a numbered sentinel {1}, {2}, ... that the subword model splits
// into pieces it copies (the shipped model keeps 96% of masked printf
// strings intact against 79% of the raw directives); Unmask restores them
// and refuses an output that lost, duplicated or invented a sentinel.
//
// Accelerator markers (&File, _File, ~File) are not sentinels: a marker
// inside a word breaks it for the model. Mask removes the marker and
// remembers the key; Unmask puts the marker back in the translation, on the
// same letter when the translation has it at a word start.
//
// The package depends on nothing of strata: the catalogue formats, the
// translate command and the server's HTML mode all use it.
package placeholder
