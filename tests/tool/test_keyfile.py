"""The standoff written by `psan-tool anonymize --standoff` is a key for `psan-tool depseudonymize`."""
from psan.tool.cli import main


def test_cli_standoff_restores_the_original(tmp_path, capsys):
    texts = tmp_path / "texts"
    texts.mkdir()
    original = "Jan Novák (jan.novak@seznam.cz, tel. +420 602 123 456)\r\nbydlí v Praze, PSČ 110 00.\n"
    (texts / "a.txt").write_bytes(original.encode("utf-8"))
    out = tmp_path / "out"
    assert main(["anonymize", str(texts), "--lang", "cs", "--mode", "pseudonymize", "--out", str(out),
                 "--seed", "7", "--standoff", "--reason", "test run", "--quiet"]) == 0
    pseudonymized = (out / "a.txt").read_bytes().decode("utf-8")
    assert "jan.novak@seznam.cz" not in pseudonymized and "602 123 456" not in pseudonymized
    capsys.readouterr()
    key = tmp_path / "out.standoff" / "a.txt.json"
    assert main(["depseudonymize", "--reason", "audit check", str(out / "a.txt"), "--key", str(key)]) == 0
    assert capsys.readouterr().out == original
