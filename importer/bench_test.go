package importer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
)

// writeNative writes a native JSONL file of pairs QA pairs with claimsPer
// claims each, an expert's labels on every pair (3) and claim (2), as a
// ClaimRAG-LAW source with its expert's labels looks.
func writeNative(w io.Writer, pairs, claimsPer int) {
	bw := bufio.NewWriter(w)
	for i := 1; i <= pairs; i++ {
		cs := make([]map[string]any, claimsPer)
		for n := range cs {
			cs[n] = map[string]any{
				"triplet":     []string{fmt.Sprintf("Article %d", i), "requires", fmt.Sprintf("obligation %d", n)},
				"predictions": map[string]string{"refchecker": "Entailment"},
				"labels":      map[string]any{"jo": map[string]string{"claim_validity": "correct", "entailment": "neutral"}},
			}
		}
		line, _ := json.Marshal(map[string]any{
			"id": fmt.Sprintf("gdpr-%06d", i), "source": "GDPR", "language": "en", "category": "factual_recall",
			"question": fmt.Sprintf("What does Article %d require?", i),
			"answer":   fmt.Sprintf("Article %d requires the controller to act lawfully, fairly and transparently.", i),
			"contexts": []map[string]string{{"id": fmt.Sprintf("gdpr-p%d", i), "text": strings.Repeat("The controller shall be responsible. ", 20)}},
			"claims":   cs,
			"labels":   map[string]any{"jo": map[string]string{"question_validity": "valid", "persona": "citizen", "answer_correctness": "correct"}},
		})
		bw.Write(line)
		bw.WriteByte('\n')
	}
	bw.Flush()
}

func nativeBenchFileN(pairs, claimsPer int) string {
	var b strings.Builder
	writeNative(&b, pairs, claimsPer)
	return b.String()
}

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

// BenchmarkImportNative imports 340 QA pairs, 1,000 claims and 3,000 labels.
func BenchmarkImportNative(b *testing.B) {
	dir := b.TempDir()
	p := writeFile(b, dir, "bench.jsonl", string(nativeBenchFile()))
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

// peakHeap imports a generated file of the given number of claims into a
// new database and returns the largest heap in use seen during the import
// (runtime.MemStats.HeapInuse, sampled every 2 ms) and the file's size.
func peakHeap(t testing.TB, claims int) (peak uint64, size int64) {
	dir := t.TempDir()
	p := filepath.Join(dir, "items.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	writeNative(f, claims/4, 4)
	f.Close()
	st, _ := os.Stat(p)
	s, err := store.Open(filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Garbage is collected at 10% above the live heap rather than 100%: the
	// peak then follows what the import holds, not when the collector
	// happened to run (at the default, the two sizes' peaks differed by
	// 4-9 MiB from run to run).
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.HeapInuse)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	sum, err := Import(s, []string{p}, Options{})
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if got := sum.Total().Claims.Added; got != claims {
		t.Fatalf("%d claims imported, want %d", got, claims)
	}
	return peak, st.Size()
}

// BenchmarkImportMemory reports the peak heap of importing 10k and 100k
// claims (with their pairs and 3.3 labels a claim): it does not grow with
// the file. Run with -bench ImportMemory -benchtime 1x.
func BenchmarkImportMemory(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("claims=%d", n), func(b *testing.B) {
			for range b.N {
				peak, size := peakHeap(b, n)
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
				b.ReportMetric(float64(size)/(1<<20), "file-MiB")
			}
		})
	}
}

// TestImportMemoryIsFlat imports 2,000 and then 20,000 claims (0.8 MiB and
// 8.4 MiB of native JSONL): the peak heap of the larger import stays within
// a few MiB of the smaller one's. Before streaming, the whole file and its
// records were in memory: the peak grew with the file.
func TestImportMemoryIsFlat(t *testing.T) {
	small, smallSize := peakHeap(t, 2_000)
	large, largeSize := peakHeap(t, 20_000)
	t.Logf("peak heap %.1f MiB for %.1f MiB of input, %.1f MiB for %.1f MiB", float64(small)/(1<<20), float64(smallSize)/(1<<20),
		float64(large)/(1<<20), float64(largeSize)/(1<<20))
	if large > small+8<<20 {
		t.Fatalf("peak heap grew from %d to %d bytes with a 10x larger file", small, large)
	}
}
