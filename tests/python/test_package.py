"""The package itself: import, the engine registry, the error hierarchy, words of the engines."""

import pytest

import tmu


def test_engines_lists_the_registry_in_order():
    names = [e["name"] for e in tmu.engines()]
    assert names == ["tensix", "amx", "pto"]
    tensix = tmu.engines()[0]
    assert tensix["variants"] == ["blackhole", "wormhole"]
    assert tmu.engines()[2]["variants"] == ["cpusim", "a2a3", "a5"]


@pytest.mark.parametrize("name", ["DecodeError", "UndefinedBehaviour", "NonContractualBehaviour",
                                  "Unsupported", "BadInput"])
def test_every_error_kind_is_a_tmu_error(name):
    cls = getattr(tmu, name)
    assert issubclass(cls, tmu.Error)
    assert cls.kind == name
    assert not issubclass(cls, (TypeError, ValueError))


def test_disassemble_and_assemble_round_trip():
    # README: build/tmu dis 0x10184000 prints ZEROACC Imm10=0 AddrMod=1 Revert=0 UseDst32b=0 Mode=3
    assert tmu.disassemble(0x10184000) == "10184000  ZEROACC Imm10=0 AddrMod=1 Revert=0 UseDst32b=0 Mode=3"
    assert tmu.disassemble("0x10184000") == tmu.disassemble(0x10184000)
    assert tmu.assemble("ZEROACC Mode=3 AddrMod=1") == 0x10184000
    assert tmu.assemble("matfp f32 z+=x*y x=0x40 y=0x80", engine="amx") == 0x0000100000010080


def test_reserved_opcode_is_a_decode_error_with_the_model_reason():
    with pytest.raises(tmu.DecodeError, match=r"opcode 0xfc is unknown or reserved"):
        tmu.disassemble(0xFC000000)


def test_field_out_of_range_is_bad_input_with_the_model_reason():
    with pytest.raises(tmu.BadInput, match=r"MVMUL.DstRow=9999 is outside its allowed range 0..1023"):
        tmu.assemble("MVMUL DstRow=9999")


def test_engine_without_words_is_bad_input():
    with pytest.raises(tmu.BadInput, match=r"^the pto engine has no instruction words to disassemble$"):
        tmu.disassemble(1, engine="pto")


def test_wrong_arguments_name_the_argument():
    with pytest.raises(ValueError, match=r"tmu.disassemble: engine: unknown engine 'tpu'"):
        tmu.disassemble(1, engine="tpu")
    with pytest.raises(ValueError, match=r"tmu.disassemble: variant: unknown tensix variant 'grayskull'"):
        tmu.disassemble(1, variant="grayskull")
    with pytest.raises(TypeError, match=r"tmu.disassemble: word: expected a str or an int, got float"):
        tmu.disassemble(1.5)
    with pytest.raises(ValueError, match=r"tmu.disassemble: word: expected a word of at most 64 bits"):
        tmu.disassemble(-1)
    with pytest.raises(ValueError, match=r"tmu.disassemble: word"):
        tmu.disassemble(1 << 70)


def test_wormhole_variant_is_taken_in_any_case():
    assert tmu.disassemble(0x26008000, variant="Wormhole") == tmu.disassemble(0x26008000, variant="wormhole")


def test_cmake_install_puts_an_importable_package_under_lib_python3(tmp_path):
    import os
    import subprocess
    import sys
    build = os.environ.get("TMU_BUILD_DIR")
    if not build:
        pytest.skip("TMU_BUILD_DIR is not set (ctest python.pytest sets it)")
    cmake = os.environ.get("TMU_CMAKE", "cmake")
    subprocess.run([cmake, "--install", build, "--component", "python", "--prefix", str(tmp_path)],
                   check=True, capture_output=True)
    site = tmp_path / "lib" / "python3" / "dist-packages"
    out = subprocess.run([sys.executable, "-c", "import tmu; print(tmu.__file__, tmu.engines()[0]['name'])"],
                         env={**os.environ, "PYTHONPATH": str(site)}, check=True, capture_output=True, text=True)
    assert out.stdout.split() == [str(site / "tmu" / "__init__.py"), "tensix"]
