// The JSON parser and its values live in JSONCodec (which todo-sync uses without the store);
// TodoInterop's API still offers them: JSONParser, JSONValue, JSONObject, JSONParseError.
@_exported import JSONCodec
