package parquetcheck

import (
	"encoding/binary"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// crafted is a real file taken apart to be edited as an attacker would: its
// footer decoded, its pages located, then written back with what changed
// and every offset after a change moved.
type crafted struct {
	data []byte // everything before the footer
	md   format.FileMetaData
}

func takeApart(t testing.TB, b []byte) *crafted {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	c := &crafted{data: append([]byte(nil), b[:len(b)-8-n]...)}
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), b[len(b)-8-n:len(b)-8], &c.md); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *crafted) bytes(t testing.TB) []byte {
	t.Helper()
	f, err := thrift.Marshal(new(thrift.CompactProtocol), &c.md)
	if err != nil {
		t.Fatal(err)
	}
	return c.withFooter(f)
}

// withFooter ends the file with the footer bytes f.
func (c *crafted) withFooter(f []byte) []byte {
	out := append(append([]byte(nil), c.data...), f...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(f)))
	return append(out, "PAR1"...)
}

// page is one page of a column chunk: where its header starts, the header
// and the body.
type page struct {
	at     int64
	header format.PageHeader
	hlen   int
	body   []byte
}

func (c *crafted) pages(t testing.TB, rg, col int) []page {
	t.Helper()
	cm := c.md.RowGroups[rg].Columns[col].MetaData
	start := cm.DataPageOffset
	if cm.DictionaryPageOffset > 0 {
		start = cm.DictionaryPageOffset
	}
	var out []page
	for at := start; at < start+cm.TotalCompressedSize; {
		r := new(thrift.CompactProtocol).NewReaderFromBytes(c.data[at:])
		var h format.PageHeader
		if err := thrift.NewDecoder(r).Decode(&h); err != nil {
			t.Fatal(err)
		}
		hl := r.BytesRead()
		body := c.data[at+int64(hl) : at+int64(hl)+int64(h.CompressedPageSize)]
		out = append(out, page{at: at, header: h, hlen: hl, body: body})
		at += int64(hl) + int64(h.CompressedPageSize)
	}
	return out
}

// setPage replaces page k of a column chunk with header h and body (its
// compressed size set to the body's length unless keepSize), moving what
// follows.
func (c *crafted) setPage(t testing.TB, rg, col, k int, h format.PageHeader, body []byte, keepSize bool) {
	t.Helper()
	p := c.pages(t, rg, col)[k]
	if !keepSize {
		h.CompressedPageSize = int32(len(body))
	}
	h.CRC = 0 // no checksum: a reader checks none
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		t.Fatal(err)
	}
	old := int64(p.hlen + len(p.body))
	repl := append(hb, body...)
	d := int64(len(repl)) - old
	end := p.at + old
	c.data = append(append(append([]byte(nil), c.data[:p.at]...), repl...), c.data[end:]...)
	for i := range c.md.RowGroups {
		for j := range c.md.RowGroups[i].Columns {
			cc := &c.md.RowGroups[i].Columns[j]
			m := &cc.MetaData
			move := func(off *int64) {
				if *off >= end {
					*off += d
				}
			}
			move(&m.DataPageOffset)
			if m.DictionaryPageOffset > 0 {
				move(&m.DictionaryPageOffset)
			}
			move(&cc.FileOffset)
			if cc.OffsetIndexOffset > 0 {
				move(&cc.OffsetIndexOffset)
			}
			if cc.ColumnIndexOffset > 0 {
				move(&cc.ColumnIndexOffset)
			}
			if i == rg && j == col {
				m.TotalCompressedSize += d
			}
		}
	}
}

// deepSchema is a footer whose schema nests depth groups, the last holding
// one string column: what the library would walk recursively.
func deepSchema(t testing.TB, depth int) []byte {
	t.Helper()
	md := format.FileMetaData{Version: 1}
	one := thrift.New[int32](1)
	for i := 0; i < depth; i++ {
		md.Schema = append(md.Schema, format.SchemaElement{Name: "g", NumChildren: one})
	}
	md.Schema = append(md.Schema, format.SchemaElement{Name: "text", Type: thrift.New(format.ByteArray),
		RepetitionType: thrift.New(format.Optional)})
	f, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	return (&crafted{data: []byte("PAR1")}).withFooter(f)
}
