package exporter

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Label Studio's own rules for a labeling config and for the tasks
// imported into a project with it, transcribed from its source so a test
// can hold every exported task to them (Label Studio itself needs Django,
// pydantic and a database, which the tests do not have):
//
//   - the config (label_studio/core/label_config.py validate_label_config,
//     and label_studio_sdk's LabelInterface.validate: _schema_validation
//     against label_config_schema.json, _unique_names_validation,
//     _to_name_validation): it parses as XML under <View>; every name="…"
//     is unique; every toName names a tag; a <Choices> has name, toName and
//     <Choice> children, a <Choice> a value, a <Text> a name and a value,
//     a <TextArea> a name and a toName;
//   - a task's data (label_studio/tasks/validation.py TaskValidator
//     check_data, over extract_data_types): for every tag with a name and
//     value="$key", data holds key, a string or a number for <Text> and
//     <Header>;
//   - a task's annotations and predictions (TaskValidator.validate): lists
//     of objects with a "result" list;
//   - a result (label_studio_sdk label_interface/interface.py
//     _validate_region_logic, control_tags.py validate_value): from_name,
//     to_name, type and value present; from_name a control tag
//     (ControlTag.validate_node: a tag with name and toName), to_name an
//     object tag; type the control's tag in lower case; to_name one of the
//     control's toName; value {"choices": [strings]} for <Choices>, every
//     one a <Choice> of that control (its alias, else its value), at most
//     one unless choice="multiple" (ControlTag._labels_json_schema),
//     {"text": [strings]} for <TextArea>; a score, if any, in [0, 1];
//   - an annotation's completed_by (label_studio/tasks/serializers.py
//     BaseTaskSerializerBulk._insert_valid_completed_by): absent, or an
//     object whose "email" is a member's (unknown e-mails are refused
//     unless the server allows them), or a member's numeric id; anything
//     else is refused.

// lsRules is a parsed config.
type lsRules struct {
	objects  map[string]lsRuleObject
	controls map[string]*lsRuleControl
	dataKeys map[string]string // $key -> the tag that reads it
}

type lsRuleObject struct{ tag, value string }

type lsRuleControl struct {
	tag      string // lower case: "choices", "textarea"
	toName   []string
	labels   []string
	multiple bool
}

// parseLSRules reads a labeling config as Label Studio does, refusing what
// it refuses.
func parseLSRules(config string) (*lsRules, error) {
	type node struct {
		XMLName xml.Name
		Attrs   []xml.Attr `xml:",any,attr"`
		Nodes   []node     `xml:",any"`
	}
	var root node
	if err := xml.Unmarshal([]byte(config), &root); err != nil {
		return nil, fmt.Errorf("not XML: %v", err)
	}
	if root.XMLName.Local != "View" {
		return nil, fmt.Errorf("the root is <%s>, not <View>", root.XMLName.Local)
	}
	names := regexp.MustCompile(`(?:^|[^\w])name="([^"]*)"`).FindAllStringSubmatch(config, -1)
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n[1]] {
			return nil, fmt.Errorf("Label config contains non-unique names: %s", n[1])
		}
		seen[n[1]] = true
	}
	for _, t := range regexp.MustCompile(`toName="([^"]*)"`).FindAllStringSubmatch(config, -1) {
		for _, to := range strings.Split(t[1], ",") {
			if !seen[to] {
				return nil, fmt.Errorf(`toName="%s" not found in names`, to)
			}
		}
	}
	r := &lsRules{objects: map[string]lsRuleObject{}, controls: map[string]*lsRuleControl{}, dataKeys: map[string]string{}}
	attr := func(n node, k string) (string, bool) {
		for _, a := range n.Attrs {
			if a.Name.Local == k {
				return a.Value, true
			}
		}
		return "", false
	}
	var walk func(n node, parent *lsRuleControl) error
	walk = func(n node, parent *lsRuleControl) error {
		name, hasName := attr(n, "name")
		to, hasTo := attr(n, "toName")
		value, hasValue := attr(n, "value")
		tag := n.XMLName.Local
		switch {
		case tag == "Choice":
			label, ok := attr(n, "alias")
			if !ok {
				label, ok = value, hasValue
			}
			if !ok {
				return fmt.Errorf("a <Choice> without value")
			}
			if parent != nil {
				parent.labels = append(parent.labels, label)
			}
		case hasName && hasTo: // a control tag
			c := &lsRuleControl{tag: strings.ToLower(tag), toName: strings.Split(to, ",")}
			c.multiple = func() bool { v, _ := attr(n, "choice"); return v == "multiple" }()
			r.controls[name] = c
			for _, ch := range n.Nodes {
				if err := walk(ch, c); err != nil {
					return err
				}
			}
			if tag == "Choices" && len(c.labels) == 0 && !hasValue {
				return fmt.Errorf("<Choices name=%q> has no <Choice>", name)
			}
			return nil
		case hasName && hasValue: // an object tag
			r.objects[name] = lsRuleObject{tag, value}
		case tag == "Text" || tag == "Choices" || tag == "TextArea":
			return fmt.Errorf("<%s> lacks name, toName or value", tag)
		}
		if hasName && hasValue && strings.HasPrefix(value, "$") {
			r.dataKeys[value[1:]] = tag
		}
		for _, ch := range n.Nodes {
			if err := walk(ch, parent); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, nil); err != nil {
		return nil, err
	}
	return r, nil
}

// checkTask lists what Label Studio would refuse in a task (a decoded JSON
// value); members are the e-mails of the organization's members.
func (r *lsRules) checkTask(task any, members map[string]bool) []string {
	t, ok := task.(map[string]any)
	if !ok {
		return []string{"the task is not an object"}
	}
	data, ok := t["data"].(map[string]any)
	if !ok {
		return []string{`no "data" object`}
	}
	var errs []string
	for key, tag := range r.dataKeys {
		v, ok := data[key]
		if !ok {
			errs = append(errs, fmt.Sprintf(`"%s" key is expected in task data`, key))
			continue
		}
		switch v.(type) {
		case string, float64:
		default:
			if tag == "Text" || tag == "Header" {
				errs = append(errs, fmt.Sprintf("data[%q] is %T, but <%s> expects a string or a number", key, v, tag))
			}
		}
	}
	for _, list := range []string{"annotations", "predictions"} {
		raw, present := t[list]
		objs, ok := raw.([]any)
		if present && !ok {
			errs = append(errs, fmt.Sprintf("Task[%s] must be a list", list))
		}
		for i, o := range objs {
			obj, ok := o.(map[string]any)
			if !ok {
				errs = append(errs, fmt.Sprintf("%s[%d] is not an object", list, i))
				continue
			}
			res, ok := obj["result"].([]any)
			if !ok {
				errs = append(errs, fmt.Sprintf(`%s[%d] must have a "result" list`, list, i))
			}
			if s, ok := obj["score"]; ok {
				if f, isNum := s.(float64); s != nil && (!isNum || f < 0 || f > 1) {
					errs = append(errs, fmt.Sprintf("%s[%d]: Score must be between 0.00 and 1.00 inclusive, got %v", list, i, s))
				}
			}
			for j, reg := range res {
				for _, e := range r.checkRegion(reg) {
					errs = append(errs, fmt.Sprintf("%s[%d].result[%d]: %s", list, i, j, e))
				}
			}
			if list == "annotations" {
				if e := checkCompletedBy(obj, members); e != "" {
					errs = append(errs, fmt.Sprintf("annotations[%d]: %s", i, e))
				}
			}
		}
	}
	return errs
}

func (r *lsRules) checkRegion(reg any) []string {
	m, ok := reg.(map[string]any)
	if !ok {
		return []string{"Region must be a dictionary"}
	}
	var errs []string
	for _, k := range []string{"from_name", "to_name", "type", "value"} {
		if _, ok := m[k]; !ok {
			errs = append(errs, fmt.Sprintf("Missing required field '%s'", k))
		}
	}
	if errs != nil {
		return errs
	}
	from, _ := m["from_name"].(string)
	to, _ := m["to_name"].(string)
	typ, _ := m["type"].(string)
	c, ok := r.controls[from]
	if !ok {
		return []string{fmt.Sprintf("'from_name' '%s' not found in configuration", from)}
	}
	if _, ok := r.objects[to]; !ok {
		return []string{fmt.Sprintf("'to_name' '%s' not found in configuration", to)}
	}
	if strings.ToLower(typ) != c.tag {
		errs = append(errs, fmt.Sprintf("Type '%s' does not match expected type '%s' for control '%s'", typ, c.tag, from))
	}
	if !slices.Contains(c.toName, to) {
		errs = append(errs, fmt.Sprintf("'to_name' '%s' is not valid for control '%s'", to, from))
	}
	value, _ := m["value"].(map[string]any)
	key := map[string]string{"choices": "choices", "textarea": "text"}[c.tag]
	raw, ok := value[key].([]any)
	if !ok {
		return append(errs, fmt.Sprintf("Invalid value for control '%s': want {%q: [strings]}, got %v", from, key, m["value"]))
	}
	for _, v := range raw {
		s, isStr := v.(string)
		if !isStr {
			errs = append(errs, fmt.Sprintf("Invalid value for control '%s': %v is not a string", from, v))
		} else if c.tag == "choices" && len(c.labels) > 0 && !slices.Contains(c.labels, s) {
			errs = append(errs, fmt.Sprintf("Invalid value for control '%s'. Got: %q. Valid options: %v", from, s, c.labels))
		}
	}
	if c.tag == "choices" && !c.multiple && len(raw) > 1 {
		errs = append(errs, fmt.Sprintf("%d choices for control '%s', which is not choice=\"multiple\"", len(raw), from))
	}
	return errs
}

func checkCompletedBy(a map[string]any, members map[string]bool) string {
	cb, ok := a["completed_by"]
	if !ok || cb == nil {
		return ""
	}
	switch v := cb.(type) {
	case map[string]any:
		email, ok := v["email"].(string)
		if !ok {
			return "It's expected to have 'email' field in 'completed_by' data in annotations"
		}
		if !members[email] {
			return "Unknown annotator's email " + email
		}
		return ""
	case float64:
		return fmt.Sprintf("completed_by=%v: annotate's tests have no member ids", v)
	}
	b, _ := json.Marshal(cb)
	return fmt.Sprintf("Import data contains completed_by=%s which is not a valid annotator's email or ID", b)
}

// The transcription refuses what Label Studio refuses.
func TestLabelStudioRulesRefuse(t *testing.T) {
	config := `<View>
  <Header value="Claim"/>
  <Text name="claim" value="$claim"/>
  <Choices name="entailment" toName="claim" choice="single">
    <Choice value="entailment"/><Choice value="neutral"/>
  </Choices>
  <Choices name="error_category" toName="claim" choice="multiple"><Choice value="a"/><Choice value="b"/></Choices>
  <TextArea name="note" toName="claim"/>
</View>`
	r, err := parseLSRules(config)
	if err != nil {
		t.Fatal(err)
	}
	ok := `{"from_name":"entailment","to_name":"claim","type":"choices","value":{"choices":["neutral"]}}`
	for _, c := range []struct{ task, want string }{
		{`{"data":{"claim":"x"},"annotations":[{"result":[` + ok + `]}]}`, ""},
		{`{"data":{"claim":"x"},"annotations":[{"result":[{"from_name":"error_category","to_name":"claim","type":"choices","value":{"choices":["a","b"]}},{"from_name":"note","to_name":"claim","type":"textarea","value":{"text":["t"]}}]}]}`, ""},
		{`{"data":{"text":"x"}}`, `"claim" key is expected in task data`},
		{`{"data":{"claim":["x"]}}`, `but <Text> expects a string`},
		{`{"data":{"claim":"x"},"predictions":[{"result":[{"from_name":"entailment","to_name":"claim","type":"choices","value":{"choices":["Abstain"]}}]}]}`, `Got: "Abstain"`},
		{`{"data":{"claim":"x"},"predictions":[{"result":[{"from_name":"entailment","to_name":"claim","type":"choices","value":{"choices":["neutral","entailment"]}}]}]}`, `2 choices for control 'entailment'`},
		{`{"data":{"claim":"x"},"predictions":[{"result":[{"from_name":"persona","to_name":"claim","type":"choices","value":{"choices":["x"]}}]}]}`, `'from_name' 'persona' not found`},
		{`{"data":{"claim":"x"},"predictions":[{"result":[{"from_name":"entailment","to_name":"question","type":"choices","value":{"choices":["neutral"]}}]}]}`, `'to_name' 'question' not found`},
		{`{"data":{"claim":"x"},"predictions":[{"result":[{"from_name":"entailment","to_name":"claim","type":"textarea","value":{"choices":["neutral"]}}]}]}`, `Type 'textarea' does not match expected type 'choices'`},
		{`{"data":{"claim":"x"},"predictions":[{"result":[{"from_name":"entailment","to_name":"claim","type":"choices"}]}]}`, `Missing required field 'value'`},
		{`{"data":{"claim":"x"},"predictions":[{"score":1.5,"result":[]}]}`, `Score must be between`},
		{`{"data":{"claim":"x"},"annotations":[{"completed_by":{"email":"jo@annotate.local"},"result":[` + ok + `]}]}`, `Unknown annotator's email jo@annotate.local`},
		{`{"data":{"claim":"x"},"annotations":[{"completed_by":"jo","result":[` + ok + `]}]}`, `completed_by="jo" which is not a valid annotator's email or ID`},
		{`{"data":{"claim":"x"},"annotations":[{"completed_by":{"id":3},"result":[]}]}`, `It's expected to have 'email' field`},
		{`{"data":{"claim":"x"},"annotations":[{"ground_truth":false}]}`, `must have a "result" list`},
	} {
		var task any
		if err := json.Unmarshal([]byte(c.task), &task); err != nil {
			t.Fatal(err)
		}
		errs := strings.Join(r.checkTask(task, map[string]bool{"jo@firm.example": true}), "; ")
		if c.want == "" && errs != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%s: %q, want %q", c.task, errs, c.want)
		}
	}
	for bad, want := range map[string]string{
		`<View><Text name="a" value="$a"/><Text name="a" value="$b"/></View>`:                                "non-unique names",
		`<View><Text name="a" value="$a"/><Choices name="c" toName="b"><Choice value="x"/></Choices></View>`: `toName="b" not found`,
		`<View><Text name="a" value="$a"/><Choices name="c" toName="a"></Choices></View>`:                    "has no <Choice>",
		`<View><Text name="a" value="$a"/><Choices name="c" toName="a"><Choice/></Choices></View>`:           "a <Choice> without value",
		`<View><Text value="$a"/></View>`: "<Text> lacks name",
		`<Root/>`:                         "not <View>",
	} {
		if _, err := parseLSRules(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", bad, err, want)
		}
	}
}
