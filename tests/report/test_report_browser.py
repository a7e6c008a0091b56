"""The HTML report in a real browser: headless Chromium (the system's package) driven by
Selenium opens the report of simpleDivergence.cu, which renders with no console error;
a click on mathKernel1's `if` line highlights its instructions and its CFG block.  The
screenshot is saved (its path is printed) for a person to look at.

Skipped, with the reason, where Chromium, chromedriver or selenium is missing; under CI
(the CI variable set, as .ci/run sets it, which installs Chromium) it fails instead."""
import os
import shutil
from pathlib import Path

import pytest

from minicuda.cli import minicuda_main

ROOT = Path(__file__).resolve().parents[2]
DIVERGENCE = str(ROOT / "samples" / "simpleDivergence.cu")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def missing() -> str | None:
    try:
        import jinja2  # noqa: F401
        import selenium  # noqa: F401
    except ImportError as e:
        return f"{e.name} is not installed (pip install 'minicuda[test,report]')"
    if CHROMIUM is None or DRIVER is None:
        return "headless Chromium is not installed (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture
def browser():
    reason = missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"the browser test must run under CI: {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.slow
def test_clicking_a_source_line_highlights_its_instructions_and_block(browser, tmp_path, capsys):
    from selenium.webdriver.common.by import By

    page = tmp_path / "report.html"
    assert minicuda_main(["run", "-G", "--arch", "pascal", DIVERGENCE, "--report=html", "-o", str(page)]) == 0
    capsys.readouterr()
    browser.get(page.as_uri())
    section = browser.find_element(By.CSS_SELECTOR, 'section[data-kernel="mathKernel1"]')
    assert section.find_element(By.TAG_NAME, "h2").text == "mathKernel1"
    line = next(n for n, text in enumerate(Path(DIVERGENCE).read_text().splitlines(), 1) if "if (tid % 2 == 0)" in text)
    row = section.find_element(By.CSS_SELECTOR, f'tr.src-line[data-line="{line}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", row)
    row.click()
    instructions = section.find_elements(By.CSS_SELECTOR, f'tr.sass-ins[data-line="{line}"]')
    assert instructions and all("hl" in r.get_attribute("class").split() for r in instructions)
    others = section.find_elements(By.CSS_SELECTOR, f'tr.sass-ins.hl:not([data-line="{line}"])')
    assert not others
    blocks = section.find_elements(By.CSS_SELECTOR, "g.cfg-block.hl")
    assert {b.get_attribute("id") for b in blocks} >= {r.get_attribute("data-block") for r in instructions}
    assert any("divergent" in b.get_attribute("class").split() for b in blocks)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    shot = tmp_path / "report.png"
    assert browser.save_screenshot(str(shot))
    with capsys.disabled():
        print(f"\nscreenshot: {shot}")
