package metrics

import "strings"

// ngramCounts counts the word n-grams of orders 1..maxOrder in tokens. Keys
// join tokens with a space: tokens never contain whitespace, so keys of
// different n-grams (of any order) never collide.
func ngramCounts(tokens []string, maxOrder int) map[string]int {
	counts := make(map[string]int, len(tokens)*maxOrder)
	for n := 1; n <= maxOrder; n++ {
		for i := 0; i+n <= len(tokens); i++ {
			counts[strings.Join(tokens[i:i+n], " ")]++
		}
	}
	return counts
}

// ngramOrder returns the order of an n-gram key built by ngramCounts.
func ngramOrder(key string) int { return strings.Count(key, " ") + 1 }
