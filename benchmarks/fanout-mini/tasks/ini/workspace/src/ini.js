// INI: parse to nested objects, stringify back.
import * as values from './values.js';

// @step parse-line
// TODO: parseLine(line): classify one line
// @end

// @step set-path
// TODO: setPath(root, dotted): the object at a dotted path, created as needed
// @end

// @step parse
// TODO: parse(text): an object of sections and values
// @end

// @step stringify-section
// TODO: stringifySection(object): key = value lines
// @end

// @step stringify
// TODO: stringify(object): root pairs then [sections]
// @end
