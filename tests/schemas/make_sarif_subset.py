#!/usr/bin/env python3
"""Writes sarif-schema-2.1.0.subset.json: a faithful subset of the OASIS SARIF 2.1.0 schema.

No copy of the official schema (oasis-tcs/sarif-spec sarif-2.1/schema/sarif-schema-2.1.0.json)
was on this machine. This subset keeps, for every object pt2lint emits, the official
definition's property names, types, enums, minimums, `required` lists and
`additionalProperties: false`; objects pt2lint never emits (graphs, code flows, fixes, ...)
are accepted as any object. Drop the official file in as tests/schemas/sarif-schema-2.1.0.json
and the corpus test validates against it instead.
"""
import json
import sys

ANY_OBJECT = {"type": "object"}
BAG = {"$ref": "#/definitions/propertyBag"}


def ref(name):
    return {"$ref": "#/definitions/" + name}


def array_of(item, unique=False, min_items=0):
    return {"type": "array", "minItems": min_items, "uniqueItems": unique, "items": item}


def strict(properties, required=()):
    schema = {"type": "object", "additionalProperties": False, "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


INDEX = {"type": "integer", "default": -1, "minimum": -1}
LEVEL = {"enum": ["none", "note", "warning", "error"]}

definitions = {
    "propertyBag": {
        "type": "object",
        "properties": {"tags": array_of({"type": "string"}, unique=True)},
        "additionalProperties": True,
    },
    "message": {
        **strict({"text": {"type": "string"}, "markdown": {"type": "string"}, "id": {"type": "string"},
                  "arguments": array_of({"type": "string"}), "properties": BAG}),
        "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
    },
    "multiformatMessageString": strict(
        {"text": {"type": "string"}, "markdown": {"type": "string"}, "properties": BAG}, ["text"]),
    "artifactLocation": strict({"uri": {"type": "string", "format": "uri-reference"},
                                "uriBaseId": {"type": "string"}, "index": INDEX,
                                "description": ref("message"), "properties": BAG}),
    "region": strict({
        "startLine": {"type": "integer", "minimum": 1}, "startColumn": {"type": "integer", "minimum": 1},
        "endLine": {"type": "integer", "minimum": 1}, "endColumn": {"type": "integer", "minimum": 1},
        "charOffset": {"type": "integer", "minimum": -1, "default": -1},
        "charLength": {"type": "integer", "minimum": 0}, "byteOffset": {"type": "integer", "minimum": -1, "default": -1},
        "byteLength": {"type": "integer", "minimum": 0}, "snippet": ANY_OBJECT, "message": ref("message"),
        "sourceLanguage": {"type": "string"}, "properties": BAG}),
    "physicalLocation": {
        **strict({"address": ANY_OBJECT, "artifactLocation": ref("artifactLocation"),
                  "region": ref("region"), "contextRegion": ref("region"), "properties": BAG}),
        "anyOf": [{"required": ["address"]}, {"required": ["artifactLocation"]}],
    },
    "logicalLocation": strict({"name": {"type": "string"}, "index": INDEX,
                               "fullyQualifiedName": {"type": "string"}, "decoratedName": {"type": "string"},
                               "parentIndex": INDEX, "kind": {"type": "string"}, "properties": BAG}),
    "location": strict({"id": INDEX, "physicalLocation": ref("physicalLocation"),
                        "logicalLocations": array_of(ref("logicalLocation"), unique=True),
                        "message": ref("message"), "annotations": array_of(ref("region"), unique=True),
                        "relationships": array_of(ANY_OBJECT, unique=True), "properties": BAG}),
    "reportingConfiguration": strict({"enabled": {"type": "boolean", "default": True},
                                      "level": {**LEVEL, "default": "warning"},
                                      "rank": {"type": "number", "default": -1.0, "minimum": -1.0, "maximum": 100.0},
                                      "parameters": BAG, "properties": BAG}),
    "reportingDescriptor": strict({
        "id": {"type": "string"}, "deprecatedIds": array_of({"type": "string"}, unique=True),
        "guid": {"type": "string"}, "deprecatedGuids": array_of({"type": "string"}, unique=True),
        "name": {"type": "string"}, "deprecatedNames": array_of({"type": "string"}, unique=True),
        "shortDescription": ref("multiformatMessageString"), "fullDescription": ref("multiformatMessageString"),
        "messageStrings": {"type": "object", "additionalProperties": ref("multiformatMessageString")},
        "defaultConfiguration": ref("reportingConfiguration"), "helpUri": {"type": "string", "format": "uri"},
        "help": ref("multiformatMessageString"), "relationships": array_of(ANY_OBJECT, unique=True),
        "properties": BAG}, ["id"]),
    "toolComponent": strict({
        "guid": {"type": "string"}, "name": {"type": "string"}, "organization": {"type": "string"},
        "product": {"type": "string"}, "productSuite": {"type": "string"},
        "shortDescription": ref("multiformatMessageString"), "fullDescription": ref("multiformatMessageString"),
        "fullName": {"type": "string"}, "version": {"type": "string"}, "semanticVersion": {"type": "string"},
        "dottedQuadFileVersion": {"type": "string", "pattern": "[0-9]+(\\.[0-9]+){3}"},
        "releaseDateUtc": {"type": "string"}, "downloadUri": {"type": "string", "format": "uri"},
        "informationUri": {"type": "string", "format": "uri"}, "globalMessageStrings": ANY_OBJECT,
        "notifications": array_of(ref("reportingDescriptor"), unique=True),
        "rules": array_of(ref("reportingDescriptor"), unique=True),
        "taxa": array_of(ref("reportingDescriptor"), unique=True), "locations": array_of(ref("artifactLocation")),
        "language": {"type": "string", "default": "en-US"}, "contents": array_of({"enum": ["localizedData", "nonLocalizedData"]}, unique=True),
        "isComprehensive": {"type": "boolean", "default": False},
        "localizedDataSemanticVersion": {"type": "string"}, "minimumRequiredLocalizedDataSemanticVersion": {"type": "string"},
        "associatedComponent": ANY_OBJECT, "translationMetadata": ANY_OBJECT,
        "supportedTaxonomies": array_of(ANY_OBJECT, unique=True), "properties": BAG}, ["name"]),
    "tool": strict({"driver": ref("toolComponent"), "extensions": array_of(ref("toolComponent"), unique=True),
                    "properties": BAG}, ["driver"]),
    "invocation": {"type": "object", "additionalProperties": True,
                   "properties": {"executionSuccessful": {"type": "boolean"}, "exitCode": {"type": "integer"},
                                  "properties": BAG},
                   "required": ["executionSuccessful"]},
    "result": strict({
        "guid": {"type": "string"}, "correlationGuid": {"type": "string"}, "ruleId": {"type": "string"},
        "ruleIndex": INDEX, "rule": ANY_OBJECT,
        "kind": {"enum": ["notApplicable", "pass", "fail", "review", "open", "informational"], "default": "fail"},
        "level": {**LEVEL, "default": "warning"}, "message": ref("message"), "analysisTarget": ref("artifactLocation"),
        "locations": array_of(ref("location")), "webRequest": ANY_OBJECT, "webResponse": ANY_OBJECT,
        "fingerprints": {"type": "object", "additionalProperties": {"type": "string"}},
        "partialFingerprints": {"type": "object", "additionalProperties": {"type": "string"}},
        "codeFlows": array_of(ANY_OBJECT), "graphs": array_of(ANY_OBJECT, unique=True),
        "graphTraversals": array_of(ANY_OBJECT, unique=True), "stacks": array_of(ANY_OBJECT, unique=True),
        "relatedLocations": array_of(ref("location"), unique=True),
        "suppressions": array_of(ANY_OBJECT, unique=True),
        "baselineState": {"enum": ["new", "unchanged", "updated", "absent"]},
        "rank": {"type": "number", "default": -1.0, "minimum": -1.0, "maximum": 100.0},
        "attachments": array_of(ANY_OBJECT, unique=True), "hostedViewerUri": {"type": "string", "format": "uri"},
        "workItemUris": array_of({"type": "string", "format": "uri"}, unique=True), "provenance": ANY_OBJECT,
        "fixes": array_of(ANY_OBJECT, unique=True), "taxa": array_of(ANY_OBJECT, unique=True),
        "properties": BAG}, ["message"]),
    "run": strict({
        "tool": ref("tool"), "invocations": array_of(ref("invocation")), "conversion": ANY_OBJECT,
        "language": {"type": "string", "default": "en-US"}, "versionControlProvenance": array_of(ANY_OBJECT, unique=True),
        "originalUriBaseIds": {"type": "object", "additionalProperties": ref("artifactLocation")},
        "artifacts": array_of(ANY_OBJECT, unique=True), "logicalLocations": array_of(ref("logicalLocation"), unique=True),
        "graphs": array_of(ANY_OBJECT, unique=True), "results": array_of(ref("result")),
        "automationDetails": ANY_OBJECT, "runAggregates": array_of(ANY_OBJECT, unique=True),
        "baselineGuid": {"type": "string"}, "redactionTokens": array_of({"type": "string"}, unique=True),
        "defaultEncoding": {"type": "string"}, "defaultSourceLanguage": {"type": "string"},
        "newlineSequences": array_of({"type": "string"}, unique=True, min_items=1),
        "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
        "externalPropertyFileReferences": ANY_OBJECT, "threadFlowLocations": array_of(ANY_OBJECT, unique=True),
        "taxonomies": array_of(ref("toolComponent"), unique=True), "addresses": array_of(ANY_OBJECT),
        "translations": array_of(ref("toolComponent"), unique=True), "policies": array_of(ref("toolComponent"), unique=True),
        "webRequests": array_of(ANY_OBJECT, unique=True), "webResponses": array_of(ANY_OBJECT, unique=True),
        "specialLocations": ANY_OBJECT, "properties": BAG}, ["tool"]),
}

schema = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$comment": __doc__.strip().replace("\n", " "),
    "title": "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema (subset)",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"enum": ["2.1.0"]},
        "runs": array_of(ref("run")),
        "inlineExternalProperties": array_of(ANY_OBJECT, unique=True),
        "properties": BAG,
    },
    "required": ["version", "runs"],
    "definitions": definitions,
}

with open(sys.argv[1] if len(sys.argv) > 1 else "sarif-schema-2.1.0.subset.json", "w") as out:
    json.dump(schema, out, indent=2)
    out.write("\n")
