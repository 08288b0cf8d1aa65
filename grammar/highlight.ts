/**
 * Highlighting tags for the Flow grammar's nodes. Keywords are highlighted by the role they play
 * where they stand (the tokenizer already decided whether a word is a keyword there), so a port
 * called `skip` is coloured as a name and `skip` at the head of a statement as a keyword.
 */
import { styleTags, tags as t } from '@lezer/highlight';

export const flowHighlighting = styleTags({
  'Flow Struct': t.definitionKeyword,
  'Describe PortIn PortOut Header': t.definitionKeyword,
  'Run Call Try Let Advance Skip Wait WaitValue Drain Abort Cancel Fail Log Logf Nodes Node': t.keyword,
  'If Else For In Repeat Max Until While': t.controlKeyword,
  'Tee Via Timeout Id After Forward Headers With Parallel Unordered Into By Desc First All Of One': t.modifier,
  'Stream Required Unique Matching Default As MisplacedModifier': t.modifier,
  'Or And Not': t.logicOperator,
  'Status Zip': t.keyword,
  'True False': t.bool,
  Null: t.null,
  It: t.self,
  'LogLevel LogfLevel': t.constant(t.variableName),
  'StageNone StageCount StageExpression StageOptionalExpression StageString StageOptionalString StageSort StageFold StageDuration StageThen StageLog StageLogf BareThen BareWhere':
    t.function(t.keyword),
  UnknownStage: t.invalid,
  FunctionName: t.function(t.variableName),
  'ActionName/Identifier ActionName/String': t.function(t.definition(t.variableName)),
  'FlowName/Identifier StructDeclaration/Identifier': t.definition(t.typeName),
  'TypeName/Identifier TypeName/String': t.typeName,
  'PortDeclaration/Identifier FieldName': t.definition(t.propertyName),
  'Argument/Identifier Pair/Identifier': t.propertyName,
  'MemberExpression/Identifier': t.propertyName,
  'Bind/Identifier LetStatement/Identifier ForStatement/Identifier Carry/Identifier OutputName': t.definition(t.variableName),
  Identifier: t.variableName,
  'String StringLiteral/String FormatString': t.string,
  'DescriptionText': t.docString,
  Number: t.number,
  Duration: t.unit,
  'BadDuration BadCharacter': t.invalid,
  Comment: t.lineComment,
  'CompareOp ArithOp': t.compareOperator,
  '"|" "->" "<-" "="': t.operator,
  Range: t.operator,
  Ellipsis: t.operator,
  '"." "," ":"': t.punctuation,
  '"(" ")"': t.paren,
  '"[" "]"': t.squareBracket,
  'BlockOpen RecordOpen OutputGroupOpen "}"': t.brace,
});
