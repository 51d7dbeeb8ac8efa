package importer

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// nativeBenchFile is a native JSONL file of 340 QA pairs, 1,000 claims and
// 3,000 labels: the size of a ClaimRAG-LAW source with an expert's labels.
func nativeBenchFile() []byte {
	var b strings.Builder
	claims, labels := 0, 0
	for i := 1; i <= 340; i++ {
		qaLabels := map[string]string{"question_validity": "valid", "persona": "citizen", "answer_correctness": "correct"}
		if i > 320 {
			delete(qaLabels, "persona") // 320*3 + 20*2 = 1000 QA labels
		}
		labels += len(qaLabels)
		var cs []map[string]any
		for n := 0; n < 3 && claims < 1000; n++ {
			claims++
			cs = append(cs, map[string]any{
				"triplet":     []string{fmt.Sprintf("Article %d", i), "requires", fmt.Sprintf("obligation %d", n)},
				"predictions": map[string]string{"refchecker": "Entailment"},
				"labels":      map[string]any{"jo": map[string]string{"claim_validity": "correct", "entailment": "neutral"}},
			})
			labels += 2
		}
		line, _ := json.Marshal(map[string]any{
			"id": fmt.Sprintf("gdpr-%03d", i), "source": "GDPR", "language": "en", "category": "factual_recall",
			"question": fmt.Sprintf("What does Article %d require?", i),
			"answer":   fmt.Sprintf("Article %d requires the controller to act lawfully, fairly and transparently.", i),
			"contexts": []map[string]string{{"id": fmt.Sprintf("gdpr-p%d", i), "text": strings.Repeat("The controller shall be responsible. ", 20)}},
			"claims":   cs,
			"labels":   map[string]any{"jo": qaLabels},
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	if claims != 1000 || labels != 3000 {
		panic(fmt.Sprint(claims, labels))
	}
	return []byte(b.String())
}

func BenchmarkImportNative(b *testing.B) {
	data := nativeBenchFile()
	dir := b.TempDir()
	p := writeFile(b, dir, "bench.jsonl", string(data))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := store.Open(filepath.Join(dir, fmt.Sprintf("b%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		sum, err := Import(s, []string{p}, Options{})
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if t := sum.Total(); t.QA.Added != 340 || t.Claims.Added != 1000 || t.LabelsAdded != 3000 {
			b.Fatalf("%+v", t)
		}
		s.Close()
		b.StartTimer()
	}
}
