"""The reports of annotate computed the way a data scientist would, with
pandas, scikit-learn, statsmodels and NLTK, from CSV dumps of the same
current labels (bench/run.go writes them). bench/run.go checks that every
number printed here equals annotate's --json output at the same key.

    /usr/bin/python3 bench/rivals.py stats|metrics|agreement CSV_DIR

The asked-when rule (docs/metrics.md) is applied with pandas:
a QA pair's invalid_reason counts when the question is invalid, its
category, persona and answer_correctness when it is valid; a claim asks
nothing when the same annotator judged its pair's question invalid or its
answer partially correct or incorrect, and its entailment counts when the
claim is correct. Labels whose value is outside the schema are left out.
"""

import json
import sys
import time

T0 = time.perf_counter()

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from nltk.metrics.agreement import AnnotationTask  # noqa: E402
from sklearn.metrics import (  # noqa: E402
    accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    precision_recall_fscore_support,
)
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa  # noqa: E402
from statsmodels.stats.proportion import proportion_confint  # noqa: E402

CLASSES = {
    "question_validity": ["valid", "invalid"],
    "invalid_reason": ["domain", "linguistic", "both"],
    "category": ["general_legal_research", "factual_recall", "false_premise", "jurisdiction_time_specific"],
    "persona": ["citizen", "civil_officer", "legal_expert"],
    "answer_correctness": ["correct", "partially_correct", "incorrect"],
    "missed_claims_checked": ["checked", "added"],
    "claim_validity": ["correct", "incorrect"],
    "entailment": ["entailment", "neutral", "contradiction"],
}
QA_FIELDS = ["question_validity", "invalid_reason", "category", "persona", "answer_correctness", "missed_claims_checked"]
CLAIM_FIELDS = ["claim_validity", "entailment"]
ASKED = ["question_validity", "invalid_reason", "category", "persona", "answer_correctness", "claim_validity", "entailment"]


def load(d):
    labels = pd.read_csv(f"{d}/current_labels.csv")
    items = pd.read_csv(f"{d}/items_h.csv", keep_default_na=False)
    qa = pd.read_csv(f"{d}/qa_h.csv", keep_default_na=False)
    claims = pd.read_csv(f"{d}/claims_h.csv", keep_default_na=False)
    preds = pd.read_csv(f"{d}/predictions_h.csv", keep_default_na=False)
    people = pd.read_csv(f"{d}/annotators_h.csv", keep_default_na=False)
    return labels, items, qa, claims, preds, people


def counted(labels, items):
    """The counted labels of every annotator: one row per (annotator, item)
    with a column per field (NaN when absent or not asked), for QA pairs and
    for claims; the claims' gate reason (None when asked)."""
    ann = labels[labels.role == "annotate"]
    kind = items.set_index("id").kind
    ann = ann.assign(kind=ann.item_id.map(kind).values)

    def wide(kind_name, fields):
        part = ann[ann.kind == kind_name]
        w = part.pivot(index=["annotator_id", "item_id"], columns="field", values="value")
        for f in fields:
            if f not in w.columns:
                w[f] = np.nan
        return w[fields].reset_index()

    q = wide("qa", QA_FIELDS)
    qv = q.question_validity
    q.loc[qv != "invalid", "invalid_reason"] = np.nan
    for f in ["category", "persona", "answer_correctness"]:
        q.loc[qv != "valid", f] = np.nan
    gate = pd.Series(None, index=q.index, dtype=object)
    gate[q.answer_correctness.isin(["partially_correct", "incorrect"])] = "answer_correctness=" + q.answer_correctness
    gate[qv == "invalid"] = "question_validity=invalid"
    q["gate"] = gate

    c = wide("claim", CLAIM_FIELDS)
    parent = items.set_index("id").parent_id
    c["parent_id"] = c.item_id.map(parent).values
    c = c.merge(q[["annotator_id", "item_id", "gate"]].rename(columns={"item_id": "parent_id"}),
                on=["annotator_id", "parent_id"], how="left")
    gated = c.gate.notna()
    c.loc[gated, CLAIM_FIELDS] = np.nan
    c.loc[c.claim_validity != "correct", "entailment"] = np.nan
    return q, c


def known(s, field):
    return s.where(s.isin(CLASSES[field]))


def per_source(frame, fn, sources):
    out = {"sources": {}}
    for name in sources:
        out["sources"][name] = fn(frame[frame.source == name])
    out["all"] = fn(frame)
    return out


def stats(d):
    labels, items, qa, claims, preds, people = load(d)
    t1 = time.perf_counter()
    a1 = int(people[people.name == "a1"].id.iloc[0])
    q, c = counted(labels, items)
    q, c = q[q.annotator_id == a1], c[c.annotator_id == a1]
    src = items.set_index("id").source
    qa_items = items[items.kind == "qa"].merge(qa, left_on="id", right_on="item_id")
    cl_items = items[items.kind == "claim"].merge(claims, left_on="id", right_on="item_id")
    extracted = cl_items[cl_items.origin == "extracted"]
    with_claims = set(extracted.parent_id)
    q = q.assign(source=q.item_id.map(src).values, has_claims=q.item_id.isin(with_claims).values)
    q = q.merge(qa.rename(columns={"category": "generated"}), on="item_id", how="left")
    c = c.assign(source=c.item_id.map(src).values)
    c = c.merge(q[["item_id", "question_validity", "answer_correctness"]].rename(
        columns={"item_id": "parent_id", "question_validity": "pqv", "answer_correctness": "pac"}), on="parent_id", how="left")

    def counts(s, field):
        vc = s.value_counts()
        return {v: int(vc.get(v, 0)) for v in CLASSES[field]}

    def one(name):
        qs, cs = q[q.source == name] if name else q, c[c.source == name] if name else c
        valid = qs[qs.question_validity == "valid"]
        ext = extracted[extracted.source == name] if name else extracted
        st = {
            "qa": int((qa_items.source == name).sum()) if name else int(len(qa_items)),
            "qa_judged": int(known(qs.question_validity, "question_validity").notna().sum()),
            "qa_valid": int(len(valid)),
            "hop": {h: int((valid.hop == h).sum()) for h in ["single", "multi"]},
            "answer_correctness": counts(qs.answer_correctness, "answer_correctness"),
            "persona": counts(qs.persona, "persona"),
            "category": counts(qs.category, "category"),
            "generated_category": counts(valid.generated, "category"),
            "category_changed": int((valid.category.notna() & valid.generated.isin(CLASSES["category"])
                                     & (valid.category != valid.generated)).sum()),
            "answers_with_claims": int(((valid.answer_correctness == "correct") & valid.has_claims).sum()),
            "claims": int(((cs.pqv == "valid") & (cs.pac == "correct")).sum()),
            "claims_extracted": int(len(ext)),
            "claims_not_asked": {k: int(v) for k, v in cs.gate.value_counts().items()},
            "claims_judged": int(known(cs.claim_validity, "claim_validity").notna().sum()),
            "valid_claims": int((cs.claim_validity == "correct").sum()),
            "entailment": counts(cs.entailment, "entailment"),
        }
        return st

    names = sorted(items.source.dropna().unique())
    out = {"sources": {n: one(n) for n in names}, "all": one(None)}
    return out, t1


def metrics(d):
    labels, items, qa, claims, preds, people = load(d)
    t1 = time.perf_counter()
    a1 = int(people[people.name == "a1"].id.iloc[0])
    q, c = counted(labels, items)
    c = c[c.annotator_id == a1]
    src = items.set_index("id").source
    cl_items = items[items.kind == "claim"].merge(claims, left_on="id", right_on="item_id")
    extracted = cl_items[cl_items.origin == "extracted"]
    c = c.assign(source=c.item_id.map(src).values)
    p = preds[(preds.system == "refchecker") & (preds.field == "entailment")][["item_id", "value"]]
    ready = c[(c.claim_validity == "correct") & c.entailment.isin(CLASSES["entailment"])].merge(p, on="item_id")
    classes = CLASSES["entailment"]

    def extraction(name):
        cs = c[c.source == name] if name else c
        ext = extracted[extracted.source == name] if name else extracted
        judged = int(known(cs.claim_validity, "claim_validity").notna().sum())
        valid = int((cs.claim_validity == "correct").sum())
        out = {"claims": int(len(ext)), "not_asked": int(cs.gate.notna().sum()), "judged": judged, "valid": valid,
               "accuracy": valid / judged if judged else None, "ci95": None}
        if judged:
            lo, hi = proportion_confint(valid, judged, alpha=0.05, method="wilson")
            out["ci95"] = [max(0.0, lo), min(1.0, hi)]
        return out

    # scikit-learn is given integer codes (0..2 the classes, 3 "other"):
    # with strings it spends most of its time sorting them.
    codes = {k: i for i, k in enumerate(classes)}
    ready = ready.assign(t=ready.entailment.map(codes).astype(int), p=ready.value.map(codes).fillna(3).astype(int))
    labels = list(range(len(classes)))

    def verification(name):
        r = ready[ready.source == name] if name else ready
        truth, pred = r.t.to_numpy(), r.p.to_numpy()
        n = len(r)
        if n == 0:
            return {"n": 0}
        prec, rec, f1, sup = precision_recall_fscore_support(truth, pred, labels=labels, zero_division=0)
        cm = confusion_matrix(truth, pred, labels=labels + [3])
        return {
            "n": n,
            "classes": {k: {"precision": float(prec[i]), "recall": float(rec[i]), "f1": float(f1[i]), "support": int(sup[i])}
                        for i, k in enumerate(classes)},
            "confusion": {k: {col: int(cm[i][j]) for j, col in enumerate(classes + ["other"])} for i, k in enumerate(classes)},
            "accuracy": float(accuracy_score(truth, pred)),
            "macro_f1": float(f1_score(truth, pred, labels=labels, average="macro", zero_division=0)),
            "weighted_f1": float(f1_score(truth, pred, labels=labels, average="weighted", zero_division=0)),
            "kappa": float(cohen_kappa_score(truth, pred)),
        }

    names = sorted(items.source.dropna().unique())
    out = {"extraction": {n: extraction(n) for n in names}, "verification": {n: verification(n) for n in names}}
    out["extraction"]["all"] = extraction(None)
    out["verification"]["all"] = verification(None)
    return out, t1


def nan_none(x):
    x = float(x)
    return None if np.isnan(x) else x


def agreement(d):
    labels, items, qa, claims, preds, people = load(d)
    t1 = time.perf_counter()
    q, c = counted(labels, items)
    names = people.set_index("id").name
    out = {"fields": {}}
    for field in ASKED:
        frame = q if field in QA_FIELDS else c
        classes = CLASSES[field]
        lab = frame[["annotator_id", "item_id", field]]
        lab = lab[lab[field].isin(classes)]
        # Raters: every annotator with a label of the field that counts, by name.
        raters = sorted(lab.annotator_id.unique(), key=lambda a: names[a])
        m = lab.pivot(index="item_id", columns="annotator_id", values=field).reindex(columns=raters)
        n_labels = m.notna().sum(axis=1)
        res = {"units": int(len(m)), "items": int((n_labels >= 2).sum()), "complete": int((n_labels == len(raters)).sum())}
        if len(raters) < 2:
            res.update({"percent_agreement": None, "fleiss_kappa": None, "krippendorff_alpha": None, "gwet_ac1": None})
            out["fields"][field] = res
            continue
        items2 = m[n_labels >= 2]
        # counts per unit and class
        counts = np.stack([(m == k).sum(axis=1).to_numpy() for k in classes], axis=1)
        nu = counts.sum(axis=1)
        multi = nu >= 2
        same = (counts * (counts - 1)).sum(axis=1)
        pairs_total = (nu * (nu - 1))[multi].sum()
        res["percent_agreement"] = float(same[multi].sum() / pairs_total) if pairs_total else None
        complete = m[n_labels == len(raters)]
        if len(complete):
            table, _ = aggregate_raters(complete.apply(lambda s: s.map({k: i for i, k in enumerate(classes)})).to_numpy(dtype=int),
                                        n_cat=len(classes))
            res["fleiss_kappa"] = nan_none(fleiss_kappa(table, method="fleiss"))
            res["per_class"] = {}
            for i, k in enumerate(classes):
                binary = np.stack([table[:, i], table.sum(axis=1) - table[:, i]], axis=1)
                col = table[:, i].sum() / table.sum()
                res["per_class"][k] = {"fleiss_kappa": nan_none(fleiss_kappa(binary, method="fleiss")) if 0 < col < 1 else None}
        long = items2.stack().reset_index()
        long.columns = ["item", "coder", "label"]
        res["krippendorff_alpha"] = None
        # With every pairable label in one class alpha is 0/0: undefined, as
        # annotate says (null); NLTK returns 1.0 then, by convention.
        if long.label.nunique() > 1:
            task = AnnotationTask(data=list(zip(long.coder.astype(str), long.item.astype(str), long.label)))
            try:
                res["krippendorff_alpha"] = float(task.alpha())
            except ZeroDivisionError:  # every label the same class: undefined
                pass
        # Gwet's AC1 (no library in the set has it): irrCAC's gwet.ac1.raw with
        # the schema's classes.
        res["gwet_ac1"] = None
        if multi.any():
            pa = (same[multi] / (nu[multi] * (nu[multi] - 1))).mean()
            prev = (counts[nu >= 1] / nu[nu >= 1][:, None]).mean(axis=0)
            pe = (prev * (1 - prev)).sum() / (len(classes) - 1)
            res["gwet_ac1"] = float((pa - pe) / (1 - pe)) if pe < 1 else 0.0
        res["pairs"] = []
        for i in range(len(raters)):
            for j in range(i + 1, len(raters)):
                both = m[[raters[i], raters[j]]].dropna()
                a, b = both[raters[i]].to_numpy(), both[raters[j]].to_numpy()
                pair = {"a": names[raters[i]], "b": names[raters[j]], "n": int(len(both))}
                if len(both):
                    pair["cohen_kappa"] = nan_none(cohen_kappa_score(a, b))
                    pair["percent_agreement"] = float((a == b).mean())
                    cm = confusion_matrix(a, b, labels=classes)
                    pair["confusion"] = {x: {y: int(cm[r][s]) for s, y in enumerate(classes)} for r, x in enumerate(classes)}
                res["pairs"].append(pair)
        out["fields"][field] = res
    return out, t1


def main():
    report, d = sys.argv[1], sys.argv[2]
    out, t1 = {"stats": stats, "metrics": metrics, "agreement": agreement}[report](d)
    t2 = time.perf_counter()
    out["_seconds"] = {"start_and_read": t1 - T0, "compute": t2 - t1}
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
