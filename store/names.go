package store

// GenSystems are the systems of the generated answers, sorted.
func (x *Snapshot) GenSystems() ([]string, error) {
	return x.strings("SELECT DISTINCT system FROM gen_answers ORDER BY system")
}

// GenConditions are the conditions of the generated answers, sorted.
func (x *Snapshot) GenConditions() ([]string, error) {
	return x.strings("SELECT DISTINCT condition FROM gen_answers ORDER BY condition")
}
