"""The same API with the typos a type checker must catch; each line is one error."""
import pt2lint

pt2lint.chek("model.pt2")                        # a misspelt function
pt2lint.check("model.pt2", selct=["PT2"])        # a misspelt keyword
pt2lint.check(42)                                # not a target
report = pt2lint.check("model.pt2")
print(report.erors)                              # a misspelt attribute
print(report.findings[0].fix.edits[0]["op"].upper(), report.findings[0].fix.edits[0].opp)  # Optional fix, misspelt field
