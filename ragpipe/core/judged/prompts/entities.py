"""Entity extraction (the entity-aware scoring's prompt, done right): policy entities copied verbatim
from the text, typed, as a JSON array. A failure is an error, never a placeholder."""

from __future__ import annotations

import re
import unicodedata
from string import Template
from typing import Literal

from pydantic import BaseModel, Field, RootModel

from ragpipe.core.llm.examples import Example, show_outputs
from ragpipe.core.llm.prompt import Language, Output, Prompt, Text, fence, unfence_items

EntityType = Literal["policy", "organization", "location", "legal_clause", "industry"]
Role = Literal["question", "answer", "context", "ground_truth", "text"]

ROLE_LABELS: dict[str, dict[str, str]] = {
    "zh": {"question": "问题文本", "answer": "回答文本", "context": "检索上下文", "ground_truth": "标准答案",
           "text": "文本"},
    "en": {"question": "question text", "answer": "answer text", "context": "retrieved context",
           "ground_truth": "reference answer", "text": "text"},
}


class EntitiesInput(BaseModel):
    text: str
    role: Role


class Entity(Output):
    name: Text
    type: EntityType


class Entities(RootModel[list[Entity]]):
    pass


# The types of EntityType as both prompts (single text and batch) list them.
ENTITY_TYPES = {"zh": """实体类型（type 取括号中的代码）：
- 政策名称（policy）
- 机构组织（organization）
- 地理位置（location）
- 法律条款（legal_clause）
- 行业领域（industry）""", "en": """Entity types (use the code in brackets as type):
- policy name (policy)
- agency or organization (organization)
- geographic location (location)
- legal provision or clause (legal_clause)
- industry or sector (industry)"""}


# The entities the fake judge knows (the test material's), found wherever they occur.
FAKE_ENTITIES: dict[str, EntityType] = {
    "财政部": "organization", "中小企业": "industry", "上海市": "location",
    "Ministry of Finance": "organization", "small businesses": "industry", "Ohio": "location"}


def fake_entities(text: str) -> list[Entity]:
    found = sorted((e for e in FAKE_ENTITIES if e in text), key=text.index)
    return [Entity(name=e, type=FAKE_ENTITIES[e]) for e in found]


def _role(label: str, language: Language) -> Role:
    return next(role for role, shown in ROLE_LABELS[language].items() if shown == label)


def _with_types(template: str, language: Language) -> str:
    return Template(template).safe_substitute(entity_types=ENTITY_TYPES[language])


def _folded(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).lower()


def _variables(inputs: EntitiesInput, language: Language) -> dict[str, str]:
    return {"role_label": ROLE_LABELS[language][inputs.role]}


def _check(inputs: EntitiesInput, output: Entities) -> None:
    text = _folded(inputs.text)
    invented = [e.name for e in output.root if _folded(e.name) not in text]
    if invented:
        raise ValueError(f"entities not found verbatim in the text: {invented}; copy names exactly as written")


ZH = """任务：从下面的${role_label}中提取关键政策实体。

${data_rule}

${entity_types}

规则：
1. 只提取文本中实际出现的实体，name 必须与原文逐字一致，不要改写、补全或翻译。
2. 同一实体只列一次；不属于以上类型的词语不要提取。
3. 文本中没有这类实体时输出空数组 []。

文本：
${text}

输出格式：只输出一个 JSON 数组，例如 [{"name": "财政部", "type": "organization"}, {"name": "小微企业", "type": "industry"}]，不要输出其他内容。"""

EN = """Task: extract the key policy entities from the ${role_label} below.

${data_rule}

${entity_types}

Rules:
1. Extract only entities that actually occur in the text; name must be copied verbatim, not rephrased, completed
   or translated.
2. List each entity once; do not extract words of any other type.
3. When the text has no such entity, output an empty array [].

Text:
${text}

Output format: only a JSON array, for example [{"name": "Ministry of Finance", "type": "organization"},
{"name": "small businesses", "type": "industry"}], nothing else."""

ENTITIES: Prompt[EntitiesInput, Entities] = Prompt(
    name="entity_extraction",
    version="1.0",
    input_model=EntitiesInput,
    output_model=Entities,
    templates={"zh": _with_types(ZH, "zh"), "en": _with_types(EN, "en")},
    data_fields={"text": "text"},
    variables=_variables,
    check=_check,
    fake_reply=lambda inputs: Entities(fake_entities(inputs.text)),
    read_back=lambda placed, language: {"role": _role(placed["role_label"], language)},
)


# ---- the entities of several texts in one call ------------------------------------------
class EntityText(BaseModel):
    role: Role
    text: str


class EntitiesBatchInput(BaseModel):
    texts: list[EntityText] = Field(min_length=1)


class TextEntities(Output):
    index: int = Field(ge=1, description="number of the text, from 1")
    entities: list[Entity]


class EntitiesBatchOutput(Output):
    texts: list[TextEntities]


def _render_texts(texts: list[EntityText], language: Language) -> str:
    head = "文本 {i}（{label}）：" if language == "zh" else "Text {i} ({label}):"
    return "\n\n".join("\n".join((head.format(i=i, label=ROLE_LABELS[language][t.role]), fence(f"text {i}", t.text)))
                       for i, t in enumerate(texts, 1))


def _read_texts(placed: dict[str, str], language: Language) -> dict:
    """The texts of a rendered batch (the inverse of ``_render_texts``)."""
    head = r"^文本 {i}（(.+)）：$" if language == "zh" else r"^Text {i} \((.+)\):$"
    texts = unfence_items("text", placed["texts"])
    return {"texts": [EntityText(role=_role(re.search(head.format(i=i), placed["texts"], re.M).group(1), language),
                                 text=text) for i, text in enumerate(texts, 1)]}


def _batch_variables(inputs: EntitiesBatchInput, language: Language) -> dict[str, str]:
    return {"n_texts": str(len(inputs.texts))}


def _batch_check(inputs: EntitiesBatchInput, output: EntitiesBatchOutput) -> None:
    n = len(inputs.texts)
    indices = sorted(t.index for t in output.texts)
    if indices != list(range(1, n + 1)):
        raise ValueError(f"expected exactly one entry for each text index 1..{n}, got indices {indices}")
    for got in output.texts:
        text = _folded(inputs.texts[got.index - 1].text)
        invented = [e.name for e in got.entities if _folded(e.name) not in text]
        if invented:
            raise ValueError(f"text {got.index}: entities not found verbatim in that text: {invented}; "
                             "copy names exactly as written")


BATCH_ZH = """任务：从下面每一段文本中分别提取关键政策实体。

${data_rule}

${entity_types}

规则：
1. 每段文本单独处理：只提取该段文本中实际出现的实体，name 必须与该段原文逐字一致，不要改写、补全或翻译。
2. 同一段文本中的同一实体只列一次；不属于以上类型的词语不要提取。
3. 某段文本中没有这类实体时，它的 entities 为空数组 []。
4. 共有 ${n_texts} 段文本，每段都要回答且只回答一次，index 与文本编号一致。

${texts}

输出格式：只输出一个 JSON 对象，例如
${examples}"""

BATCH_EN = """Task: extract the key policy entities from each of the texts below, text by text.

${data_rule}

${entity_types}

Rules:
1. Treat each text on its own: extract only entities that actually occur in that text; name must be copied
   verbatim from it, not rephrased, completed or translated.
2. List each entity once per text; do not extract words of any other type.
3. A text without such entities gets an empty entities array [].
4. There are ${n_texts} texts; answer every text exactly once, with index equal to its number.

${texts}

Output format: only a JSON object, for example
${examples}"""

BATCH_EXAMPLES = {
    "zh": (Example(EntitiesBatchOutput.model_validate_json(
        '{"texts": [{"index": 1, "entities": [{"name": "财政部", "type": "organization"}, {"name": "小微企业", "type": "industry"}]}, {"index": 2, "entities": []}]}')),),
    "en": (Example(EntitiesBatchOutput.model_validate_json(
        '{"texts": [{"index": 1, "entities": [{"name": "Ministry of Finance", "type": "organization"}, {"name": "small businesses", "type": "industry"}]}, {"index": 2, "entities": []}]}')),),
}

ENTITIES_BATCH: Prompt[EntitiesBatchInput, EntitiesBatchOutput] = Prompt(
    name="entity_extraction_batch",
    version="1.0",
    input_model=EntitiesBatchInput,
    output_model=EntitiesBatchOutput,
    templates={"zh": _with_types(BATCH_ZH, "zh"), "en": _with_types(BATCH_EN, "en")},
    data_fields={"texts": _render_texts},
    variables=_batch_variables,
    check=_batch_check,
    lengths=lambda inputs: {"texts": len(inputs.texts)},
    fake_reply=lambda inputs: EntitiesBatchOutput(texts=[TextEntities(index=i, entities=fake_entities(t.text))
                                                         for i, t in enumerate(inputs.texts, 1)]),
    read_back=_read_texts,
    examples=BATCH_EXAMPLES,
    show_examples=show_outputs,
)
