"""The README's "From Python" example runs as written (the first ```python block of that section)."""
import os
import re
import unittest

ROOT = os.environ.get("BANDITFS_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


def readme_example():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## From Python\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


class Readme(unittest.TestCase):
    def test_the_python_example_runs(self):
        code = readme_example()
        self.assertIn("BanditSelector", code)
        self.assertIn("cross_val_score", code)
        exec(compile(code, "README.md (From Python)", "exec"), {"__name__": "__readme__"})


if __name__ == "__main__":
    unittest.main()
