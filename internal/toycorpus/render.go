package toycorpus

// renderA: SVO; "det adj noun(+s)"; tense particle and negation before the
// verb; "rel det adj noun" for places.
func renderA(f frame, l lexicon) string {
	nounPhrase := func(p np) []string {
		n := l.nouns[p.noun]
		if p.plural {
			n += l.plural
		}
		w := []string{l.det[b2i(p.definite)]}
		if p.adj >= 0 {
			w = append(w, l.adjs[p.adj])
		}
		return append(w, n)
	}
	w := nounPhrase(f.subj)
	if f.negated {
		w = append(w, l.neg)
	}
	if f.tense > 0 {
		w = append(w, l.tense[f.tense])
	}
	w = append(w, l.verbs[f.verb])
	w = append(w, nounPhrase(f.obj)...)
	if f.place != nil {
		w = append(append(w, l.rels[f.placeRel]), nounPhrase(*f.place)...)
	}
	return sentence(w, ".")
}

// renderB: SOV; "(plural-)noun adj det"; tense and negation suffixed to the
// verb; places are "noun adj det rel" (postpositions) before the verb.
func renderB(f frame, l lexicon) string {
	nounPhrase := func(p np) []string {
		n := l.nouns[p.noun]
		if p.plural {
			n = l.plural + n
		}
		w := []string{n}
		if p.adj >= 0 {
			w = append(w, l.adjs[p.adj])
		}
		if p.definite {
			w = append(w, l.det[1])
		}
		return w
	}
	w := nounPhrase(f.subj)
	if f.place != nil {
		w = append(append(w, nounPhrase(*f.place)...), l.rels[f.placeRel])
	}
	w = append(w, nounPhrase(f.obj)...)
	v := l.verbs[f.verb] + l.tense[f.tense]
	if f.negated {
		v += l.neg
	}
	return sentence(append(w, v), " !")
}

// renderC: VSO; "det noun(+plural) adj"; tense particle after the verb,
// negation first; places at the end with prepositions.
func renderC(f frame, l lexicon) string {
	nounPhrase := func(p np) []string {
		n := l.nouns[p.noun]
		if p.plural {
			n += l.plural
		}
		w := []string{}
		if p.definite {
			w = append(w, l.det[1])
		}
		w = append(w, n)
		if p.adj >= 0 {
			w = append(w, l.adjs[p.adj])
		}
		return w
	}
	var w []string
	if f.negated {
		w = append(w, l.neg)
	}
	w = append(w, l.verbs[f.verb], l.tense[f.tense])
	w = append(append(w, nounPhrase(f.subj)...), nounPhrase(f.obj)...)
	if f.place != nil {
		w = append(append(w, l.rels[f.placeRel]), nounPhrase(*f.place)...)
	}
	return sentence(w, ".")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
