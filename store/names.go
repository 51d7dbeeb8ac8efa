package store

// GenSystems are the systems of the generated answers, sorted.
func (x *ReadTx) GenSystems() ([]string, error) {
	return x.strings("SELECT DISTINCT system FROM gen_answers ORDER BY system")
}

// GenConditions are the conditions of the generated answers, sorted.
func (x *ReadTx) GenConditions() ([]string, error) {
	return x.strings("SELECT DISTINCT condition FROM gen_answers ORDER BY condition")
}

// GenJudges are the systems whose verdicts judge generated claims, sorted.
func (x *ReadTx) GenJudges() ([]string, error) {
	return x.strings("SELECT DISTINCT p.system FROM predictions p JOIN gen_claims c ON c.item_id = p.item_id ORDER BY p.system")
}

// RAGSystems are the systems of the RAGChecker results, sorted.
func (x *ReadTx) RAGSystems() ([]string, error) {
	return x.strings("SELECT DISTINCT system FROM rag_results ORDER BY system")
}
