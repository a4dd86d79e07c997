# psan — the two commands: `make run` and `make test`.
PYTHON ?= python3.11
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
EXTRAS ?= dev,embedded,server,polish,morph,swedish

.PHONY: run test lint eval models classifiers held-out-models morph-models bench translations install clean help

help:
	@echo "make run    set up and run psan on http://127.0.0.1:5000 (embedded PostgreSQL/Redis unless configured;"
	@echo "            PSAN_PORT=8080 / PSAN_HOST=0.0.0.0 make run serve elsewhere)"
	@echo "make test   run the whole test suite (PSAN_TEST_DATABASE_URL / PSAN_TEST_REDIS_URL or embedded ones)"
	@echo "make lint   ruff and bandit"
	@echo "make eval   regenerate the ner_eval reports in ner_eval/results"
	@echo "make models download the official Czech NameTag model (CC BY-NC-SA, asks to accept) into MODELS"
	@echo "            (default \$$PSAN_NAMETAG_MODELS, else instance/models, which make run uses)"
	@echo "make classifiers train the starting classifiers (cs, sk) into MODELS from ../shared"
	@echo "make held-out-models  sk-dev folds with classifiers trained on the other fold, into MODELS/held-out"
	@echo "make morph-models  train the surrogate morphology models (sk, cs) into MODELS"
	@echo "make bench  run the benchmarks under bench/"
	@echo "make translations  refresh and compile the UI catalogues (psan/translations)"

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "needs $(PYTHON) (set PYTHON=...)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[$(EXTRAS)]"
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

run: $(STAMP)
	$(PY) -m psan.commands.devstack

test: $(STAMP)
	$(PY) -m pytest -p no:cacheprovider $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/bandit -q -c pyproject.toml -r psan config

eval: $(STAMP)
	$(PY) -m ner_eval all --out ner_eval/results

# the official NameTag models (psan/tool/models/manifest.json: URLs, SHA-256, licences); never committed.
# The licence (CC BY-NC-SA: non-commercial) is printed and must be accepted; ACCEPT=1 accepts it unasked.
# The spaCy Czech pipeline is an opt-in: `$(PY) -m psan.tool.models download spacy-czech`.
MODELS ?= $(or $(PSAN_NAMETAG_MODELS),instance/models)
models: $(STAMP)
	$(PY) -m psan.tool.models download --models-dir "$(MODELS)" $(if $(ACCEPT),--accept-licence) $(MODELS_ARGS)

# starting classifiers, never committed (licences: ner_eval/results/README.md "Starting models");
# cs from cnec-train (CC BY-NC-SA: non-commercial), sk from sk-dev (CC BY-SA)
SHARED ?= ../shared
classifiers: $(STAMP)
	$(PY) -m psan.tool.detection.classifier train --corpus $(SHARED)/data/cnec-train.jsonl --lang cs --out $(MODELS)/classifier-cs.bin
	$(PY) -m psan.tool.detection.classifier train --corpus $(SHARED)/data/sk-dev.jsonl --lang sk --out $(MODELS)/classifier-sk.bin

# sk-dev measured on documents its classifier has not seen: two fold corpora and a models folder each, whose
# classifier-sk.bin is trained on the other fold (ner_eval/held_out_models.py; never committed)
held-out-models: $(STAMP)
	$(PY) -m ner_eval.held_out_models --corpus $(SHARED)/data/sk-dev.jsonl --lang sk --models-dir $(MODELS) --out $(MODELS)/held-out

# surrogate morphology models (never committed), chosen by the held-out folds of `ner_eval inflection`
# (ner_eval/results/inflection.md): Slovak gets the UDPipe tagger and the learned case reader (cases-sk.json),
# both from the SNK annotation sources (CC BY-SA 4.0; the sentences of SNK dev/test are not in them);
# Czech gets the UDPipe tagger (morph-cs.udpipe, with valency-cs.json) from every Czech treebank here (CAC dev+test,
# CLTT train/dev/test: CC BY-SA 4.0; FicTree dev+test: CC BY-NC-SA 4.0, non-commercial, the terms of the Czech NER
# models, so the model is non-commercial too) with every sentence of inflect-cs-dev.jsonl left out (all 141 are CAC
# sentences, found by id; no other treebank sentence has their text): trained without fold A's documents it read
# Case on fold A better than the rules (0.935 against 0.922).  The learned case reader (cases-cs.json) is trained
# from the same sentences, names weighed 20 to a common noun (chosen by cross-validation on the treebanks' names),
# but psan does not use it: on fold A it lowered Case at every weight (MODEL_WEIGHTS in psan/tool/morph/analysis.py;
# `python -m ner_eval inflection-fit --fold a` refits every model's weight on fold A and prints fold B beside it).
UD := $(SHARED)/data/ud
CS_TREEBANKS := $(foreach t,cac-ud-dev cac-ud-test cltt-ud-train cltt-ud-dev cltt-ud-test fictree-ud-dev \
	fictree-ud-test,--treebank $(UD)/cs_$(t).conllu)
morph-models: $(STAMP)
	@test -n "$(MODELS)" || { echo "set MODELS=<models folder> or PSAN_NAMETAG_MODELS"; exit 1; }
	$(PY) -m psan.tool.morph train --lang sk --iterations 3 --max-sentences 2500 --models-dir $(MODELS) \
		--treebank $(UD)/sk_snk-source-train.conllu --exclude-corpus $(SHARED)/data/inflect-sk-dev.jsonl
	$(PY) -m psan.tool.morph train-cases --lang sk --models-dir $(MODELS) \
		--treebank $(UD)/sk_snk-source-train.conllu --exclude-corpus $(SHARED)/data/inflect-sk-dev.jsonl
	$(PY) -m psan.tool.morph train --lang cs --iterations 3 --models-dir $(MODELS) $(CS_TREEBANKS) \
		--exclude-corpus $(SHARED)/data/inflect-cs-dev.jsonl
	$(PY) -m psan.tool.morph train-cases --lang cs --models-dir $(MODELS) --name-weight 20 $(CS_TREEBANKS) \
		--exclude-corpus $(SHARED)/data/inflect-cs-dev.jsonl

bench: $(STAMP)
	$(PY) bench/bench_rules.py
	$(PY) bench/bench_preannotation.py

# after changing user-visible strings: extract, merge into the Czech catalogue, translate, compile
translations: $(STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg -k lazy_gettext -k lazy_pgettext:1c,2 --project psan \
		--version 0.1.0 --copyright-holder "psan developers" -o psan/translations/messages.pot .
	$(VENV)/bin/pybabel update -i psan/translations/messages.pot -d psan/translations -l cs --no-fuzzy-matching
	$(VENV)/bin/pybabel compile -d psan/translations --statistics

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
