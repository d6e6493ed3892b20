"""One reading of a chat line: what a player said, as a typed utterance.

A line is free chat (``Chat``), or a line to her (``@<her handle> ...``): a fact to
remember (``Remember``, judged once: kept, or why it is refused), a fact to forget
(``Forget``), or anything else (``Question``: the kinds of question it reads as, with
their slots; none, small talk). English and Portuguese alike. The fact shelf stores
what it reads and her answers answer it: both call ``read_line``, once per line, so
she answers a line as her memory took it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache

from game.addressing import Addressee
from game.teams import TeamBook
from memory import claims
from memory.guard import named_in
from memory.naming import others_named
from memory.person import third_person
from memory.question_kinds import Ask, asks_in, asks_of_self, plain_line
from memory.spoken_dates import expiry_in
from memory.standing import claims_standing

REMEMBER = re.compile(
    r"^(?:remember\b[\s,:]*(?:that\s+)?"
    r"|(?:lembr[ae](?:-se)?(?:\s+de)?|anota(?:\s+a[ií])?|guarda)(?:\s+(?:que|q)\s+|\s*[:,]\s*))"
    r"(?P<fact>.+)$",
    re.IGNORECASE | re.DOTALL,
)
# What opens a clause before what it tells: a greeting or a conjunction ("oi!", "e",
# "also"), an opener (``open``), a change's (``change``), a secret's ("entre nós:").
LEAD_IN = re.compile(
    r"^(?:(?:ah|oh|ok|okay|so|hey|hi|hello|and|also|but|e|mas|ei|oi|ola|opa|olha|entao|tipo|tb|tbm"
    r"|tambem|ps|p\.s\.|bom dia|boa tarde|boa noite|kkk+|haha\w*|lol"
    r"|quick one|quick thing|real quick|rapidinho"
    # the room hailed: "povo mudei de escala", "Pessoal, mudança: ..."
    r"|povo|pessoal|gente|galera|malta|guys|folks|people)\b[\s,:!.]*"
    r"|(?P<open>fyi|btw|b\.t\.w\.?|by the way|just so you know|jsyk|for the record"
    r"|for your info\w*|not that (?:you|it|anyone) cares?(?:\W+but)?|heads up|fun fact"
    r"|note(?: that)?|take note(?: that| of this)?|(?:quick |small )?update|news|new info"
    r"|introducing myself|quick intro|about me|(?:me )?apresentando(?: \w+)?|sobre mim"
    r"|pra constar|para constar|pra registro|para registro|so (?:pra|para) constar"
    r"|anota(?: ai)?(?: que| q)?|(?:so )?(?:pra|para) (?:voce|vc|tu|ce) saber|podes? saber(?: que| q)?|fica sabendo(?: que| q)?"
    r"|fica(?:m)? a saber(?: que| q)?|fiquem a saber(?: que| q)?|(?:so )?(?:pra|para) saberes"
    r"|(?:pra|para) quem nao (?:sabe|conhece|sabia)|for (?:those|anyone) who (?:doesn'?t|don'?t)"
    r" know|(?:pra|para) os novos(?: do grupo)?"
    r"|lembra disso|remember this"
    r"|a proposito|alias|novidade|(?:pra|para) (?:sua|tua) informacao"
    r"|pra atualizar|para atualizar|sabia que|sabia q|registra(?: ai)?(?: que| q)?"
    r"|(?:just |so |aqui |ca )?between (?:us|you and me)|(?:so |aqui |ca )?entre nos"
    r"|in confidence|confidentially|off the record|(?:e )?segredo|entre a gente"
    r"|not for (?:\w+ ){0,2}ears|off[- ]topic)"
    r"|(?P<change>actually|scratch that|correction|change of plans?|na verdade|corrigindo"
    r"|correcao|mudanca de planos?|mudanca(?=\s*[:!])|mudou tudo|plans? changed|mudou o plano"
    r"|atualiza(?:ndo|cao)?(?: importante)?(?: ai)?))\b[\s,:;.!-]*"
    # a topic said before what is told: "hobby novo: ...", "xmas plan: ...", "random but true:"
    r"|(?P<topic>(?:new |novo |nova )?(?:hobby|plans?|plano|news|novidade|vida nova|meta)"
    r"(?: (?:novo|nova|new))?|(?:xmas|christmas|natal|reveillon|holiday"
    r"|ferias|weekend|fds) (?:plans?|planos?)|random (?:but true|fact)|curiosidade"
    r"|confession|confissao)(?::\s*|\s*$)"
)
# An opener said later in the line: "corinthiano sofredor aqui, só pra constar".
OPENER_WITHIN = re.compile(
    r"\b(?:fyi|btw|by the way|for the record|just so you know|pra constar|para constar"
    r"|so (?:pra|para) (?:voce|vc) saber|fica a saber|ficam a saber)\b"
)
# ... or a first person saying what lasts: where they live, work, whom they support, what
# they are, have, do or stopped doing ("I'm a nurse", "moro em Campinas", "não como carne").
# When a trip is: "no natal", "em janeiro", "semana que vem"
TRIP_WHEN = (
    r"(?:no natal|no reveillon|no carnaval|nas ferias|de ferias|no fim do ano|semana que vem"
    r"|mes que vem|ano que vem|em (?:janeiro|fevereiro|marco|abril|maio|junho|julho|agosto"
    r"|setembro|outubro|novembro|dezembro))"
)
# What one has on a day, not for good: "i've got a matinee", "I have a meeting at 3"
APPOINTMENT = (
    r"(?:meeting|match|game|exam|test|class|lesson|rehearsal|show|matinee|gig|appointment"
    r"|shift|call|deadline|flight|train|bus|dentist|doctor|date|party|dinner|lunch|session)s?\b"
)
FIRST_PERSON = re.compile(
    r"^(?:(?:em|in|next|this|no|na|nesse|neste|esse|este|semana que vem|ano que vem|a partir de"
    r"|mes que vem|amanha|tomorrow|ontem|yesterday|last|finally|finalmente|agora|on|every"
    r"|toda|todo|entretanto|enfim|anyway|now|tecnicamente|technically|basicamente|basically"
    r"|oficialmente|officially|praticamente|practically)\s+(?:\w+\s+)?"
    # a habit by its weekday: "and tuesdays I have Luxembourgish class", "as tercas eu"
    r"|(?:and\s+|e\s+)?(?:on\s+|as\s+|aos\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days\s+"
    r"|(?:and\s+|e\s+)?(?:as|aos)\s+(?:segundas|tercas|quartas|quintas|sextas|sabados"
    r"|domingos)\s+)?(?:i\s+|eu\s+(?!nao\b|pedalo|nado|coleciono|dirijo|uso|como|bebo|cozinho|toco|canto"
    r"|danco|entrei|sai|passei))?(?:(?:also|just|now|still|finally|recently|actually|tambem|agora|ja"
    r"|acabei de|finalmente|ainda)\s+)*"
    r"(?:i (?:live|work|support|root for|cheer for|follow|play|run|speak|study|teach|coach"
    r"|train|own|got|collect|ride|drive|use|moved|switched|started|quit|stopped"
    r"|signed up|joined|became|grew up|was born|sold|gave up|'m going to|am going to"
    r"|(?:'m|am) (?:flying|heading|travell?ing) to|don'?t (?:eat|drink|live|work|support|play|run)"
    r"|no longer|can'?t (?:eat|drink)|see (?:a|my) (?:therapist|psychologist|psychiatrist"
    r"|counsell?or|shrink))\b"
    # what one has, as with "tenho": a thing counted or a kind that lasts, not "I have
    # video" (backing a story about someone else) nor "I have now"
    rf"|i (?:have|had) (?!(?:a|an) {APPOINTMENT})(?:a|an|no|one|two|three|four|five|\d+|my own|kids|children|twins"
    r"|allergies|asthma|diabetes|celiac|migraines?|anxiety|adhd|surgery|cancer|been|had"
    r"|\w+ed|\w+ (?:class|classes|lessons|practice|training))\b"
    r"|i(?:'m| am|m) (?:a|an|from|now|no longer|not|vegan|vegetarian|pescatarian|allergic"
    r"|lactose|gluten|married|engaged|single|divorced|pregnant|retired|moving|training|learning"
    # (not a task at hand: "im doing the xmas party order")
    r"|studying|doing(?! (?:the|this|that|it|our)\b)|going to (?:move|run|do|start)|based|living|working|on (?:holiday|vacation"
    r"|leave)|off|back|into|in (?:love|a band|a choir)|a fan|left[- ]handed)\b"
    r"|we(?:'re| are|re) (?:in|moving|going|living|based|expecting)"
    r"|we (?:\w+ )?(?:moved|live|got|have|bought|adopted)"
    rf"|i(?:'ve| have|ve) (?!(?:got )?(?:a|an) {APPOINTMENT})(?:got|been|moved|switched|started|joined|signed|quit|stopped|become"
    r"|adopted|two|three|a|an)\b"
    r"|(?!.*\b(?:looks (?:just )?like|spitting image|a cara d))"
    # (not a body of the moment: "my lips are sealed", "my knee is still filing complaints")
    r"my (?!(?:god|gosh|goodness|lord|bad|man|dude|friend|dear|lips|knees?|head|brain|heart"
    r"|legs?|back|stomach|eyes|ears|hands?|feet|nerves|liver|body|voice|throat)\b)\w+(?: \w+){0,3}"
    r" (?:is|are|was|were|just|lives|works|has)\b"
    # (not "tenho palavras", "tenho ensaio": what one has today is no fact)
    r"|(?:nao )?tenho (?:(?:um|uma|uns|umas|dois|duas|tres|quatro|cinco|\d+) (?!(?:minuto|hora"
    r"|segundo|dia|reuniao|jogo|prova|aula|ensaio|compromisso)s?\b)|alergia|intolerancia|asma"
    r"|diabetes|medo|pavor|fobia|filh|gemeos|gemeas|gat[oa]|cachorr|irma|namorad|esposa|marido"
    r"|carro|moto|casa|apartamento|sitio|netos?|sobrinh)"
    # "jogo" is a game as often as "I play": only with what is played or where
    r"|(?:nao )?jogo (?:futebol|futsal|bola|pelada|tenis|volei|basquete|xadrez|padel|golfe"
    r"|handebol|rugby|squash|poker|sinuca|fifa|videogame|no |na |num |numa |em |pelo |pela "
    r"|toda |todo |aos |as )"
    # (not "faço isto", nor "eu faço" alone: what is done is not said)
    # (not "sou do contra": a contrarian's pick, not a club)
    r"|(?:nao )?(?:sou(?! do contra\b)|moro|trabalho|torco|corro|falo|estudo"
    r"|faco(?! (?:isto|isso|aquilo)\b)(?!\s*(?:[,.;!?]|$))"
    r"|treino|nasci"
    r"|cresci|mudei|me mudei|comecei|parei|virei|larguei|adotei|casei|separei|vendi|desisti"
    # (not "voltei a dormir": back to what one does once, no habit)
    r"|voltei(?! a (?:dormir|deitar|ver|assistir|olhar|ler|respirar|sorrir|acreditar|viver"
    r"|sonhar|chorar)\b)"
    r"|terminei (?:o|a|com|meu|minha)"
    r"|troquei|vou (?:me mudar|correr|fazer|comecar|casar|viajar|morar)"
    # a trip, with its when: "vou pra Salvador no reveillon" (not "vou pro ensaio")
    rf"|(?:vou|vamos|to indo|tou indo) (?:pra|para|pros?|pras?|aos?|a) [^,.;!?]*\b{TRIP_WHEN}"
    rf"|{TRIP_WHEN},? (?:vou|vamos|to indo|tou indo) (?:pra|para|pros?|pras?|aos?|a)\b"
    r"|vamos (?:pra|para|pros?|pras?|aos?|as|morar|nos mudar)"
    r"|(?:vou|vamos) passar (?:o |a |as |os |uma |um )?(?:natal|reveillon|ano novo|carnaval"
    r"|ferias|semana|mes|fim)"
    # a habit: "todo fim de semana tô no rio", "every sunday I ..."
    r"|(?:todo|toda|every) (?:fim de semana|final de semana|\w+),? (?:eu )?(?:to|tou|estou|vou"
    r"|jogo|corro|pesco|treino|i|we)\b"
    # a way of life said bare: "vegan since 2019"
    r"|(?:vegan[oa]?|vegetarian[oa]?|pescatarian[oa]?|celiac[oa]?|sober|sobri[oa]) (?:since"
    r"|desde|for|ha)\b"
    r"|(?:ja|agora) (?:to|tou|estou|moro) (?:em|no|na) \w+|(?:just )?moved (?:to|into|in)\b"
    r"|i(?:'m| am|m)? (?:in|from) \w+ (?:since|for)\b|\d+ (?:yrs|years|anos) (?:here|aqui))\b"
    # words that are as often something else ("como tá o jogo?", "canto", "uso") only
    # after "eu" or "não": "eu como carne", "não bebo"
    r"|(?:eu|nao|eu nao) (?:pedalo|nado|coleciono|dirijo|uso|como|bebo|cozinho|toco|canto"
    r"|danco|entrei|sai|passei)\b"
    r"|(?:to|tou|estou|tava|estava) (?:morando|trabalhando|treinando|estudando|aprendendo"
    r"|fazendo|de ferias|de licenca|gravida|noiv[oa]|namorando|solteir[oa]|casad[oa]|tendo"
    r"|pensando em|planejando|tentando|tratando|tomando|fazendo|indo)\b"
    # "we" in Portuguese: "adotamos uma gata", "eu e minha namorada vamos pra Salvador"
    r"|(?:adotamos|compramos|mudamos|casamos|tivemos|ganhamos (?:um|uma)|montamos|abrimos"
    r"|fechamos|viajamos|moramos|temos)\b"
    r"|eu e (?:o |a |minha |meu |meus |minhas )?\w+(?: \w+)? (?:vamos|estamos|tamos|temos"
    r"|moramos|fomos|somos|compramos|adotamos|casamos)\b"
    r"|(?:toco|canto|danco|coleciono|pedalo|nado|pinto|escrevo|cozinho|adotei|comprei|comecei"
    r"|ganhei (?:um|uma)|tive (?:um|uma)(?! (?:feeling|pressentimento|sonho|dia|noite|sensacao|palpite|ideia))|fiz (?:uma cirurgia|um curso|tatuagem|uma tatuagem))\b"
    r"|i(?:'m| am|m) (?:the one|terrified|scared|afraid|obsessed|addicted|originally|half"
    r"|colou?r ?blind|diabetic|deaf|celiac|coeliac|intolerant|expecting|having|getting"
    r"|thinking (?:of|about)|planning|trying to)\b"
    r"|i (?:sing|dance|paint|write|cook|knit|climb|surf|swim|cycle|hike|brew|bake|keep"
    # (not what one says of the moment or of someone: "i love this for u", "I hate you all")
    r"|adopted|bought|got (?:a|an|my)|(?:can'?t stand|hate|love)(?! (?:this|that|it|these"
    r"|those|u|you|ya|ur|your|him|her|them|how|when|the way)\b))\b"
    # (no verb between: "a minha mãe desligou a televisão e foi" tells nothing of hers)
    # (not "meu deus", "minha nossa": an exclamation; nor "o meu primo é a cara do
    # Richarlison": a likeness, banter)
    r"|(?!.*\b(?:a cara d|looks (?:just )?like|spitting image|parece (?:com|o|a|um|uma)|igualzinh))"
    r"(?:(?:o|a|os|as) )?(?:meu|minha|meus|minhas) (?!(?:deus|nossa|pai do ceu|senhor|amigo"
    r"|querid[oa]|povo|gente|caro|rei)\b)\w+(?: (?!\w+(?:ou|eu|iu)\b|(?:e|nem)\b)\w+){0,3}"
    # ("os meus nervos e nem é a minha seleção": "e" is "and" there, not "é")
    r" (?:e(?! (?:nem|tb|tbm|tambem|eu|vc|voce|ele|ela)\b)|sao|era|eram|se chama"
    r"|chama|chamam|mora|moram|tem|faz|fazem|adora|adoram|estuda|trabalha|nasceu|virou)\b)"
)
# What makes a told fact a change of mind: it replaces the one it updates.
CHANGE = re.compile(
    r"\b(?:anymore|no longer|not any more|now|instead|switched|moved|back to|these days"
    r"|agora|mudei|me mudei|virei|voltei|troquei|passei a|nao \w+(?: \w+)? mais|em vez|ao inves"
    r"|atualiza(?: ai)?|atualizacao|cancel\w*|called off|gave up|desisti\w*|not going|nao vou mais"
    r"|sai d[aeo]|fui (?:morar|pra)|after all|change of plans?|mudanca de planos?|mudei de ideia"
    r"|is off|'s off|switched|left my|moved out|update|mudanca feita|new flat|new place|moved to"
    r"|a partir de (?:hoje|amanha|segunda|agora)|adeus|goodbye|is history"
    r"|ja nao (?:moro|trabalho|sou|estou|to|tou|vivo|como|bebo|jogo|faco|uso|fumo|corro))\b"
)
# Taking a fact back: "forget ...", "pls delete that", "esquece isso", "apaga o que eu
# disse do meu cachorro", "pode esquecer". What follows names the fact.
POLITE = (
    r"please|pls|plz|ok|okay|hey|so|and|also|just|e|ei|oi|por favor|pfv|pf|sff|can you|could you"
    r"|would you|can u|could u|you can|u can|can we|could we|let'?s|pode|podes|podia|podias"
    r"|poderia|voce pode|vc pode"
    r"|da pra|tem como|consegues|consegue|do me a favou?r and|kindly"
    # what is asked of her through a wish: "I'd like you to forget", "queria q vc apagasse"
    r"|i(?:'d| would)? (?:like|want|need) (?:you|u) to|(?:quero|queria|preciso|gostaria|prefiro"
    r"|preferia|preferiria)(?: (?:que|q)(?: (?:vc|voce|tu|c))?| (?:vc|voce|tu|c))"
    r"|(?:acho )?melhor (?:vc|voce|tu)"
)
# What takes a fact back wherever it stands in its clause ("ok this is embarrassing but
# can u unremember what i said about lactose"): verbs no one says of anything but memory.
FORGET_VERB = (
    r"forget|delete|erase|unremember|unlearn|wipe|scrap|esquec[ae](?:r|-se|m)?|esquecam|esqueca"
    r"|esquecesses?|apag(?:a|ue|uem|ues|ar|asse|asses)|deletasse|ignorem|strike (?:that|it)"
    # "não quero isso guardado", "I don't want that stored"
    r"|nao quero (?:(?:isso|isto) |(?:que|q) (?:isso |isto )?(?:fique|seja) )?(?:guardad|registr?ad"
    r"|anotad|salv)[oa]|(?:don'?t|do not) want (?:that|it|this) (?:stored|saved|kept|remembered"
    r"|on record|in your notes)|nao (?:e|eh) (?:pra|para) (?:lembrar|anotar|guardar)"
    # "pode tirar isso da sua memória", "remove that from your notes"
    r"|(?:tir|remov)(?:a|e|ar|er)\s+(?:(?:isso|isto|aquilo|essa|esse|it|that|this)\s+)?(?:da|das"
    r"|from)\s+(?:(?:sua|tua|suas|tuas|your|ur)\s+)?(?:memoria|notas|cabeca|lista|memory|notes"
    r"|list|head)"
    r"|delet(?:a|e|ar)|take (?:it|that|this) back(?: out)?|take back|retir(?:a|e|ar) o que"
    r"|deix(?:a|e) (?:isso |isto |essa |esse |aquilo )?(?:pra|para) la|deix(?:a|e) cair"
    r"|(?:finj(?:a|am)|fing(?:e|ir)) (?:que|q) (?:eu )?(?:nunca|nao) (?:te )?(?:contei|falei|disse"
    r"|mencionei)|(?:finj(?:a|am)|fing(?:e|ir)|faz(?:e)? de conta) (?:que|q) (?:vc |voce |tu )?(?:nunca"
    r"|nao) (?:ouviu|ouviste|soube|leu|viu)|(?:nao|n) quero (?:rasto|rastro) (?:disso|disto|daquilo)"
    r"|pretend (?:you )?(?:never|didn'?t) (?:hear|heard|see|saw|read)"
    r"|pretend i (?:never|didn'?t) (?:say|said|tell|told|mention\w*)"
    r"|nao precisa(?:s)? (?:de )?(?:te )?(?:lembrar|guardar(?= (?:isso|isto|nada|aquilo)\b|\W*$))"
    r"|no need to (?:remember|keep(?= (?:that|it|this)\b))"
    r"|(?:don'?t|do not) need to (?:remember|keep(?= (?:that|it|this)\b))|(?:nao|n) (?:guard|anot)(?:a|e|es)"
    r"|(?:nao|n) (?:me )?(?:mencion|comen|fal)(?:a|e|es|ar) mais|(?:not|never|don'?t|stop) bring(?:ing)?"
    r" (?:(?:it|that|this|the|my) )?(?:\w+ )?(?:\w+ )?up"
)
FILLER = r"(?:\s+(?:la|ai|entao|so)\b(?=\s+\S))?"
FORGET = re.compile(
    rf"^(?:(?:{POLITE})\W+)*"
    rf"(?:{FORGET_VERB}|drop|remove|scratch|disregard|throw away|(?:deit|jog)(?:a|e|ar) fora"
    r"|nao (?:guard|anot|registr)(?:a|e|ar)|don'?t (?:keep|save|store)"
    r"|remov(?:a|e|er)|tir(?:a|e|ar)|retir(?:a|e|ar)"
    r"|desconsider(?:a|e|ar)|ignor(?:a|e|ar))\b"
    # (a filler after the verb names nothing: "apaga lá o que eu te disse")
    rf"{FILLER}(?P<what>.*)$",
    re.DOTALL,
)
FORGET_WITHIN = re.compile(
    rf"\b(?:(?:{POLITE})\W+)*(?:{FORGET_VERB})\b{FILLER}(?P<what>.*)$", re.DOTALL
)
# Who forgets, when the verb is theirs and not asked of her: "I forget which day", "eu
# esqueço", "you deleted", "nunca esquece"
NOT_ASKED_OF_HER = re.compile(
    r"\b(?:i|eu|he|she|they|we|you|u|vc|voce|tu|ele|ela|eles|elas|never|nunca|to|not|nao|n|didn'?t|won'?t"
    r"|can'?t|will|'ll|vou|vai|pra|para|de|q|que|who|quem|se|if|quando|when|cannot|ever|quero"
    r"|queria|want|wanna|need|preciso|tento|try|trying|tentando|consigo|hard to|dificil)\W*$"
)
# The words before what a take-back names: "what I told you about", "o que eu falei do".
FORGET_LEAD = re.compile(
    r"^(?:[^\w;.!?]+|(?:ei|olha|oi|hey|ok|okay|so|entao|bom|well|acho melhor|e melhor|melhor|better"
    r"|lembras-te|lembra-te|lembras|te lembras|se lembra|vc lembra|voce lembra|you remember|vc|voce|tu|you|nada|anything|about|that|this|it|the fact that|please|pls|plz|por favor|pfv|pf|sabe|lembra|remember|you know|the|thing|stuff|bit|part|lance|parada|parte|cena"
    r"|da (?:sua |tua )?memoria|das (?:suas |tuas )?notas|from (?:your )?(?:memory|notes)"
    r"|coisa|historia|negocio|assunto|aquele|aquela|esse|essa|(?:o|a)? ?(?:que|q) (?:eu )?"
    r"(?:te )?(?:disse|falei|contei|mencionei)|eu (?:te )?(?:disse|falei|contei)|what i (?:told|said|mentioned)(?: to)?(?: you)?"
    r"|what i said|what i shared|everything i (?:told|said|shared)(?: you)?|my (?:info|note|fact)s? (?:about|on)"
    r"|isso|isto|aquilo|disso|disto|daquilo|que|q|de|do|da|dos|das|sobre"
    r"|o que eu (?:te )?(?:disse|falei|contei)"
    r"|o q eu (?:te )?(?:disse|falei|contei)|aquilo que eu (?:te )?(?:disse|falei|contei)"
    r"|o que (?:te )?(?:disse|falei|contei)|(?:o|a) (?:info|informacao|fato) (?:de|do|da|sobre)|the|o|a|os|as)(?=\W|$))\s*"
)
# What "everything" is about, when not the player: "tudo que falei sobre o Brasil"
SCOPE = re.compile(
    r"\b(?:sobre|about|on|regarding|acerca)\s+(?!mim\b|me\b|myself\b|eu\b)(?P<what>\w.*)$"
)
# ... or who: "dele", "about her" (the one a clause before named: a capitalised word)
OF_THEM = re.compile(r"\b(?:dele|dela|deles|delas|about (?:him|her|them))\b")
NAMES = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-ZÀ-Ý][\wÀ-ÿ]+")
EVERYTHING = re.compile(r"(?:everything|all of it|all|tudo|td)(?: (?:about me|sobre mim|de mim))?")
# A take-back closing its clause: "aquele lance da entrevista esquece", "forget it".
FORGET_CLOSING = re.compile(
    r"\b(?:(?:pode|podes|please|pls|can you) )?(?:esquece|esquecer|esqueca|apaga|apagar|forget it"
    r"|forget that"
    r"|deitar fora|jogar fora|tira (?:isso|isto|essa|esse|aquilo)(?: da[ií]| fora)?"
    r"|remove (?:it|that|this)|take (?:it|that|this) out"
    r"|delete (?:it|that)|scratch that|drop it)\b(?=\s*(?:[,.;!]|$))"
)
# What trails the thing a take-back names: "from your memory", "das suas notas", "too".
FORGET_TRAIL = re.compile(
    r"\s*\b(?:thing|stuff|story|bit|from (?:your|ur) (?:memory|notes|list|head)|out of your head"
    r"|das (?:suas|tuas) notas|da (?:sua|tua) (?:memoria|cabeca)|da cabeca"
    r"|(?:(?:it|that) )?ever happened|(?:que|q) (?:isso )?(?:aconteceu|existiu)"
    r"|dai|daí|ai|aí|ta|tá|ne|né|ok|okay|sim|tb|tbm|too|also|tambem|pfv|pf|sff|se faz favor|pls|plz|nao|lol|kkk+|haha\w*|rs|(?:que|q) (?:eu )?(?:te )?(?:falei|disse|contei)"
    r"|por enquanto|por agora|for now|altogether|completely|entirely|for good|de vez"
    r"|totalmente|completamente"
    r"|(?:that )?i (?:told|mentioned|said)(?: to)?(?: you)?)\b.*$"
)
# A fact told to be kept between the two of them, or a take-back that only hides it.
SECRET = re.compile(
    r"\b(?:between (?:us|you and me)|just between|(?:don'?t|do not|pls don'?t|never) (?:tell"
    r"|mention|share|spread|repeat|bring (?:it|that|this) up)|keep (?:it|this|that)? ?"
    r"(?:private|secret|quiet|to yourself|between)|(?:it'?s|is) a secret|secretly|off the record"
    r"|rather keep (?:it|that|this) private|entre nos|segredo|sigilo|confidencial"
    r"|nao (?:conta|conte|contem|fala|fale|falem|espalha|espalhe|espalhem|comenta|comente"
    r"|comentem|repete|repita|repitam)\b|not for (?:\w+ ){0,2}ears|(?:don'?t|do not) let"
    r" (?:\w+ ){1,3}know|nobody (?:here |at work )?knows|keep (?:it|this) (?:on the )?down ?low"
    r"|entre a gente|fica (?:so )?(?:entre|aqui)|ninguem (?:aqui )?(?:sabe|precisa saber)"
    r"|ninguem (?:sabe|pode saber)|so (?:pra|para) (?:vc|voce|ti)\b(?! saber)"
    r"|(?:nao precisa|no need to) (?:espalhar|contar|falar|comentar|tell|share|spread|mention))"
)
# Kinds of fact that are private however they are told: health, home address, a
# relationship's trouble, a job hunt behind the boss's back, anything that opens an
# account (a PIN told her was told back to any player who asked, and shown on the
# scoreboard).
# A matter of health, in either language: its own kind of sensitive fact, and what "minha
# saúde", "the health thing" name when taken back
HEALTH = (
    r"diabet\w*|hiv|epilep\w*|asthma|asma|illness|disease|doenca|doente|tdah|adhd|enxaqueca"
    r"|c(?:o|oe)?eliac\w*|celiac[oa]s?|crohn\w*|migraines?|alzheimer\w*|cancer|cancro"
    r"|antidepress\w*|autis\w*|bipolar|medication|medicamento|remedio|insulin\w*|hipertens\w*"
    r"|hypertens\w*|blood pressure|pressao (?:alta|arterial)|tensao (?:alta|arterial)|colesterol"
    r"|cholesterol|comprimidos?|pills|diagnos\w*|surgery|tumou?r|chemo|therapy|therapist"
    r"|depress\w*|anxiety|pregnan\w*|miscarriage|rehab|hospital\w*|cirurgia|quimio\w*|terapia"
    r"|terapeuta|depressao|ansiedade|gravid\w*|internad\w*|arritmia|arrhythmia|hernia"
    r"|aler(?:gia|gic[oa])\w*|allerg\w*|epipen|anaphyla\w*|anafila\w*"
)
HEALTH_MATTER = re.compile(rf"\b(?:{HEALTH})\b")
SENSITIVE = re.compile(
    r"\b(?:password\w*|passcode|pin(?: code| number)?|senhas?|cpf|ssn|social security"
    r"|card number|numero do cartao|cvv|iban|conta bancaria|bank account"
    rf"|{HEALTH}"
    r"|desempregad[oa]|unemployed|laid off"
    r"|gay|lesbian|lesbica|bisexual|bissexual|jewish|judeu|judia|muslim|muculman[oa]"
    r"|my address|street|avenue|apartment \d+|apt \d+"
    r"|divorc\w*|separat\w*|breakup|broke up|cheating|affair|job hunt\w*|looking for (?:a )?"
    r"(?:new )?job|job interview\w*|interviewing|quit my job|resign\w*"
    r"|meu endereco|rua \w+"
    r"|avenida|ap(?:to)? \d+|divorci\w*|separad\w*|separacao|terminei|termin(?:amos|ou comigo)"
    r"|traicao|procurando (?:um )?(?:novo )?emprego|entrevista de emprego|curriculo"
    r"|pedir demissao|pedi demissao|residence permit|work permit|visa|visto|immigration"
    r"|imigracao)\b"
    # a phone number or an e-mail address
    r"|\+?\d[\d ().-]{7,}\d|\b[\w.+-]+@[\w-]+\.[\w.]+"
)
# The patterns below read a chat line, never longer than game.pool.talk.MAX_CHAT_LENGTH
# (500 characters): a few grow with the square of a line's length (20,000 commas take
# CLOSER 45 s), and at 500 every one takes under 0.05 s. A longer text must be cut first.
# Where a line's clauses part: a sentence's end, or a comma before a question
# ("moro em Campinas, quem tá ganhando?").
CLAUSES = re.compile(
    r"(?<=[.!?])\s+|\s*[;\n]\s*|\s+(?:\u2014|\u2013)\s+|(?<=\w):\s+|,\s*(?=(?:quem|who|what|whats|qual|quais|como|how|where|onde"
    r"|quant\w*|when|quando|e (?:vc|voce|tu)|and you|do you|can you|sera|will|is it)\b)"
    # ... or a comma before what follows from it: "I'm allergic to peanuts, so give the
    # paçoca to bruno" (what is said to another player is theirs)
    r"|,\s*(?=(?:so|then|but|entao|ent[aã]o|mas|porque|pq|because|por isso|daí|dai)\b)",
    re.IGNORECASE,
)
# What follows from a fact, told after it: "I'm coeliac, so count me out", ", então ..."
# (read as written: "só chá agora" is "only tea now")
_SO = r"(?:so|then|ent[aã]o|por isso|da[ií])\b"
SO_ON = re.compile(rf",\s*{_SO}", re.IGNORECASE)
SO_START = re.compile(rf"\s*{_SO}", re.IGNORECASE)  # a clause opening so
# What closes a telling without telling anything: "atualiza aí", "thanks", "ok?".
CLOSER = re.compile(
    r"(?:[,;.!]+\s*|\s+)(?:(?:atualiza|anota|registra|guarda|update|note|save)(?: a[ií]| that| it| this)?"
    r"|write (?:that|it|this) down|take note|ok|okay|pls|please|thanks|thx|ty|obrigad\w*"
    r"|valeu|vlw|blz|beleza)[\s!.]*$",
    re.IGNORECASE,
)
# Why a take-back takes a fact back, said after it: not a new fact to keep
GIVING_UP = re.compile(
    r"(?:(?:ja|eu|i|i'?ve|i have|already)\s+)?(?:desisti|gave up|quit|parei|larguei|nao rolou"
    r"|didn'?t work|not doing it|nao vou mais|cancel\w*|acabou|it'?s over|ja era"
    r"|(?:i'?m |i am |im )?(?:not going back|done with|over it)|never again|nunca mais"
    r"|nao volto|mudei de (?:ideias?|opini(?:ao|oes))|changed my mind|prefiro (?:nao|nem)|(?:i'?d )?rather"
    r" not|era (?:zoeira|brincadeira)|(?:it )?was a joke)\b"
)
# A clause that stops before saying anything: "I'm not", "eu sou"
UNFINISHED = re.compile(r"\b(?:not|nao|no|is|am|'m|im|sou|e|estou|to|i|sou eu|not me|e eu)\W*$")
# A line whose words end in a question: asked, not told ("do I still live in Campinas?").
# "meu favorito é o Vini Jr, ta?": a tag after a comma asks nothing
ASKED = re.compile(r"(?<!, ta)(?<!, tá)(?<!, ne)(?<!, né)(?<!, ok)(?<!, right)(?<!, sabe)\?\s*\W*$")


# A clause asking her to say, with no question mark: "diz-me que não sou só eu", "tell me
# I'm still top", "remind me what my dog's called" ("lembra que" tells her; "lembra-me" asks)
TELL_ME = re.compile(
    r"\W*(?:diz-me|diga-me|me diz|me diga|diz ai|confirma|confirm|tell me|say|remind me|lembra-me"
    r"|me lembra|recorda-me|me recorda)\b"
)


def _asks(clause: str) -> bool:
    """Whether a clause asks, with a question mark or as "diz-me que ...": no telling."""
    return ASKED.search(clause) is not None or TELL_ME.match(plain_line(clause)) is not None


def told_in_confidence(line: str) -> bool:
    """Whether a line tells something as a secret ("entre nós", "keep it to yourself") or
    of a sensitive kind (health, an address, a breakup, a job hunt, a phone number)."""
    plain = plain_line(line)
    return any(p.search(plain) is not None for p in (SECRET, SENSITIVE, PARTNER))


# A partner named is private too, but no matter said of oneself ("meu namorado tá gritando
# com a TV" tells nothing lasting)
PARTNER = re.compile(r"\b(?:namorad[oa]s?|boyfriend|girlfriend)\b")


def told_to_remember(text: str, listener: Addressee) -> str | None:
    """The fact in ``@handle remember (that) ...`` / ``lembra que ...``, as told; None otherwise."""
    message = listener.message(text)
    found = None if message is None else REMEMBER.match(message)
    return None if found is None else found["fact"]


# A clause's pieces: parted by commas, or by a trailing-off ("sobre minha saúde… apaga aí")
PIECE = re.compile(r",\s*|\s*(?:\u2026|\.{2,})\s*")


def read_forget(message: str) -> Forget | None:
    """A take-back in a line to her: what it names ("" for "that": the last fact told).

    Read in any clause of the line, opening it ("actually pls delete the pregnancy
    thing") or closing it ("aquele lance da entrevista esquece"); a take-back with
    nothing after it names what the clause before it named ("sabe aquilo das minhas
    filhas? esquece por favor")."""
    # each clause's comma-parted pieces, in order: "desisti de Joinville, apaga essa
    # história de entrevista" takes back in its second piece
    clauses = [c for c in CLAUSES.split(message) if c and c.strip()]
    pieces = [(n, p) for n, c in enumerate(clauses) for p in PIECE.split(c) if p.strip()]
    parts = [p for _, p in pieces]
    for at, (clause, part) in enumerate(pieces):
        plain, taken = _taken_back(part)
        if taken is None:
            continue
        what = taken
        said = part
        if what == "" and at > 0:
            # what it names is what came before it: in its clause, else the clause before
            before = [p for n, p in pieces[:at] if n == clause]
            said = ", ".join(before) if before else clauses[clause - 1]
            what = _named_thing(plain_line(said), whole=True)
        spent = {part, *PIECE.split(said)}
        # (another take-back of the same is no rest: "esquece, tá? apaga tudo. mudei de ideia")
        rest = ", ".join(
            p for p in parts if p not in spent and not ASKED.search(p) and not _takes_back(p)
        )
        # (not the clause that named what goes: "lembras-te do que te disse da ansiedade?
        # preferia que apagasses isso")
        asked = " ".join(
            c for c in clauses if ASKED.search(c) and part not in c and c != said
        ) or " ".join(
            p for p in parts if p not in spent and ASKED.search(p)
        )  # "esquece isso, quem lidera?": its clause's other piece
        if EVERYTHING.fullmatch(what):
            # "tudo que falei sobre o Brasil hj" is all of one thing, not everything; "tudo
            # que eu te falei dele" all of the one named before it ("terminei com o Rafa")
            scope = SCOPE.search(plain)
            named = NAMES.findall(" ".join(parts[:at])) if OF_THEM.search(plain) else []
            if scope is None and not named:
                return Forget("", everything=True, rest=rest, asked=asked)
            what = _named_thing(scope["what"]) if scope is not None else named[-1]
        return Forget(_as_said(said, what), rest=rest, asked=asked, line=message)
    return None


def _taken_back(part: str) -> tuple[str, str | None]:
    """A piece of a line read plain past its openers, and what it takes back ("" for
    "that"), or None when it takes nothing back."""
    plain = plain_line(part)
    plain = plain[lead_ins(plain)[1] :]
    found = FORGET.match(plain)
    if found is not None:
        return plain, _named_thing(found["what"])
    if (closing := FORGET_CLOSING.search(plain)) is not None:
        return plain, _named_thing(plain[: closing.start()])
    if (found := _forget_within(plain)) is not None:
        return plain, _named_thing(found["what"])
    return plain, None


def _takes_back(part: str) -> bool:
    """Whether a piece of a line is a take-back of its own ("apaga tudo", "não quero isso
    guardado em lugar nenhum")."""
    return _taken_back(part)[1] is not None


def _forget_within(plain: str) -> re.Match[str] | None:
    """A take-back past the words opening its clause, when asked of her: "this is
    embarrassing but can u unremember ...", not "I forget which day it is"."""
    found = FORGET_WITHIN.search(plain)
    if found is None or NOT_ASKED_OF_HER.search(plain[: found.start()]):
        return None
    return found


def _as_said(clause: str, plain: str) -> str:
    """``plain`` (read lowercased, without accents) in ``clause`` as it was written: names
    keep their capitals and accents."""
    read = plain_line(clause)
    if len(read) != len(clause):  # a ligature or a loose accent moved the letters
        return plain
    at = read.find(plain)
    return clause[at : at + len(plain)] if plain and at >= 0 else plain


def _named_thing(words: str, whole: bool = False) -> str:
    """What a take-back names, past the words around it: "what I told you about my
    daughter" is "my daughter", "a parte de vegetariana tb" is "vegetariana".
    ``whole``: words said before the take-back ("about what I told you on Tuesday, the
    therapy thing... please forget it"), all of them, commas and all."""
    rest = words
    while (lead := FORGET_LEAD.match(rest)) is not None and lead.end() > 0:
        rest = rest[lead.end() :]
    # What it names ends with its clause: "forget my daughter, I'd rather keep it private"
    ends = r"[;!?]|\.(?!\.)" if whole else r"[,;.!?]"
    what = re.split(rf"{ends}|\s(?:pls|please|por favor|sff|se faz favor|thanks|obrigad\w*|i'?d rather|prefiro)\b",
                    rest, maxsplit=1)[0]  # fmt: skip
    what = FORGET_TRAIL.sub("", what).strip()
    return "" if re.fullmatch(r"(?:it|that|this|isso|isto|aquilo|o|a|tb|too)?", what) else what


@dataclass(frozen=True)
class Heard:
    """A fact as read from a chat line, before it is stored."""

    handle: str
    text: str
    expires_on: date | None


@dataclass(frozen=True)
class Told:
    """A ``remember ...`` line to her, judged once: the fact to keep, or why it is refused."""

    words: str  # as the player told it, spaces folded, no final dot
    kept: Heard | None  # stored in the third person; None when refused
    others: tuple[str, ...] = ()  # other players it names: not the speaker's to tell
    about_the_game: bool = False  # a score, points or a match: the log keeps those
    standing: bool = False  # a role or standing in the pool (admin, rank, prize): the records'
    empty: bool = False  # nothing told ("remember that"): nothing to note


def read_remember(
    text: str,
    speaker: str,
    players: Mapping[str, str],
    today: date,
    listener: Addressee,
    final: date | None = None,
) -> Told | None:
    """``@<her handle> remember ...``: what it told, or ``None`` when it is no such line."""
    told = told_to_remember(text, listener)
    return None if told is None else judge(told, speaker, players, today, listener, final)


def judge(
    told: str,
    speaker: str,
    players: Mapping[str, str],
    today: date,
    listener: Addressee,
    final: date | None = None,
) -> Told:
    """A fact as told, judged once: kept in the third person, or why it is refused.

    A fact that names another player is not the speaker's to tell (``ana cheats``):
    it is refused, never stored under anyone; so is a "fact" about the game, and one
    that claims a role or a standing in the pool (``I am the admin``): she would
    repeat it to anyone who asks, in the pool's name.
    """
    fact = " ".join(told.split()).rstrip(".")
    empty = EMPTY_FACT.fullmatch(fact) is not None
    others = tuple(others_named(fact, speaker, players, listener.handle))
    game = about_the_game(fact)
    standing = claims_standing(fact)
    if empty or others or game or standing:
        return Told(fact, None, others, game, standing, empty)
    # Stored in the third person ("ana speaks Japanese"); the line itself is the source.
    # Each sentence its own: "sou a ana. moro em Valinhos" is "ana mora em Valinhos" too.
    stored = " ".join(third_person(c, speaker) for c in re.split(r"(?<=[.!?])\s+", fact))
    return Told(fact, Heard(speaker, stored, expiry_in(fact, today, final)))


# A "fact" that tells nothing: "remember that", "remember: ...", "lembra que isso".
EMPTY_FACT = re.compile(r"(?:(?:that|this|it|so|que|isso|isto)\b)?[\W_]*", re.IGNORECASE)
MATCH_NAMED = re.compile(r"\b(?:match|game|jogo|partida)\s*#?\d{1,3}\b|#\d{1,3}\b", re.I)


def about_the_game(fact: str) -> bool:
    """A "fact" that states a score, points or a match: the log keeps those, not chat.
    (A football score is small: "jejum intermitente 16/8" is a diet, "24/7" a shift.)"""
    scores = any(
        max(int(a), int(b)) <= FOOTBALL_GOALS
        for a, b in claims.SCORE.findall(claims.without_dates(fact))
    )
    return scores or any(p.search(fact) for p in (claims.POINTS, MATCH_NAMED))


FOOTBALL_GOALS = 12  # more than any side scores in a match told in a pool's chat


@dataclass(frozen=True)
class Question:
    """Anything else said to her: ``words`` (what the line says to her), the kinds of
    question it reads as (``asks``, in the order they are tried), the players it names
    (her excluded), and whether it asks after the asker ("what's my ...?")."""

    words: str
    asks: tuple[Ask, ...]
    named: tuple[str, ...]
    of_self: bool

    @property
    def plain(self) -> str:
        return plain_line(self.words)

    @property
    def small_talk(self) -> bool:
        """No known kind of question: only the asker's facts may answer it."""
        return not self.asks


@dataclass(frozen=True)
class Chat:
    """A line not to her: chat among players (a model may find facts in it)."""

    text: str


@dataclass(frozen=True)
class Remember:
    """A fact told to her, as judged: with "remember" or "lembra que", or as people tell
    things ("btw I'm vegetarian", "moro em Campinas", "pra constar: sou palmeirense").

    ``change``: told as a change of mind ("actually", "now", "not anymore", "mudei",
    "agora"): it replaces the author's fact it updates, ``replaces`` when the line names
    it ("scratch what I said about paris"). ``private``: told as a secret or of a
    sensitive kind, kept for its owner's own questions. ``question``: what the rest of
    the line asks her ("moro em Campinas, quem tá ganhando?")."""

    told: Told
    change: bool = False
    replaces: str | None = None
    private: bool = False
    question: Question | None = None
    overheard: bool = False  # told the room, not her: the rules' reading of free chat


@dataclass(frozen=True)
class Forget:
    """What the player takes back ("forget ...", "esquece isso", "apaga o que eu disse
    sobre ..."): ``what`` names it; "" is the last fact they told her, ``everything``
    every one; ``private``: they only want it kept to themselves from now on."""

    what: str
    everything: bool = False
    private: bool = False  # only kept to its owner from now on, not withdrawn
    rest: str = ""  # what the line tells besides: "esquece isso, moro em Campinas"
    asked: str = ""  # the words that ask besides: "apaga aquilo da banda. e quantos pontos?"
    question: Question | None = None  # what they ask, as read (``read_line``)
    # the whole line, to her: its words pick the fact when what it names is not read
    # ("não precisas de te lembrar de onde trabalho, tira isso"); context, not meaning
    line: str = field(default="", compare=False)


Utterance = Chat | Remember | Forget | Question


def read_line(
    text: str,
    speaker: str,
    players: Mapping[str, str],
    listener: Addressee,
    today: date,
    final: date | None = None,
) -> Utterance:
    """What ``speaker``'s chat line ``text`` says, and to whom. ``players``: every
    handle -> display name; ``today``: the day it was said, in the pool's zone;
    ``final``: the day of the last match, for "until the final"."""
    message = listener.message(text)
    if message is None:
        return _overheard(text, speaker, players, listener, today, final) or Chat(text)
    words = message.strip()

    after = listener.after(text)

    def question(said: str) -> Question:
        # called mid-line, what follows her name is what she is asked, when it asks
        # anything: "Eu também meti 2-1, ana 😏 Betânia, quem manda agora na tabela?"
        for words in ([after] if after and after in said else []) + [said]:
            asks = asks_in(words, speaker, players, listener.handle, today)
            if asks:
                break
        named = tuple(h for h in named_in(words, players) if h != listener.handle)
        return Question(words, asks, named, asks_of_self(words))

    def others(clause: str) -> bool:
        return bool(others_named(clause, speaker, players, listener.handle))

    def judged(fact: str) -> Told:
        return judge(fact, speaker, players, today, listener, final)

    plain = plain_line(words)
    secret = told_in_confidence(words)
    forget = read_forget(words)
    if forget is not None:
        # asked besides, with or without its "?": "apaga aquilo da banda. e me diz
        # quantos pontos eu tô do fabio"
        asked = question(forget.asked) if forget.asked else None
        # (why it goes is no question: "não rolou e prefiro que não fique registrado")
        reason = GIVING_UP.match(plain_line(forget.rest).strip())
        # ... and what follows asks only as a question does ("?", "me diz"): "botei no
        # impulso, não quero isso salvo" is why, with a word of betting in it
        asks = "?" in forget.rest or TELL_ME.search(plain_line(forget.rest)) is not None
        if asked is None and asks and not reason and (rest := question(forget.rest)).asks:
            asked, forget = rest, replace(forget, rest="")
        forget = replace(forget, question=asked)
        # "scratch what I said about paris, doing the london one instead": a change
        # "esquece a guitarra, desisti ao fim de duas aulas": why it goes, no new fact
        why = GIVING_UP.match(plain_line(forget.rest).strip())
        then = telling(forget.rest, others) if forget.rest and not why else None
        # what names the thing taken back is no new fact of it: "terminei com o Rafa ...
        # apaga tudo que eu te falei dele"
        if then is not None and forget.what and forget.what.lower() in then.fact.lower():
            then = None
        if then is not None and (told := judged(then.fact)).kept is not None:
            return Remember(
                told, change=True, replaces=forget.what or None, private=secret, question=asked
            )
        return forget
    remembered = REMEMBER.match(words)
    if remembered is not None:
        # what follows from it is no part of it: "I'm coeliac, so count me out"
        fact = remembered["fact"]
        follows = SO_ON.search(fact)
        if follows and not _first_person(plain_line(fact[follows.end() :])):
            fact = fact[: follows.start()]
        told = judged(fact)
        openers, _ = lead_ins(plain)
        change = CHANGE.search(plain) is not None or any(o["change"] for o in openers)
        return Remember(told, change, private=secret)
    if SECRET.search(plain) is not None and not ASKED.search(plain):
        # "o lance da namorada fica só entre nós": what was told is kept private now; a
        # question is no hush ("quem lidera? não fala que sou eu")
        hush = SECRET.split(plain, maxsplit=1)[0]
        if telling(words, others) is None and not asks_in(
            words, speaker, players, listener.handle, today
        ):
            return Forget(_as_said(words, _named_thing(hush)), private=True)
    said = telling(words, others)
    if said is not None:
        told = judged(said.fact)
        if told.kept is not None or said.opened:
            asked = question(said.asked) if said.asked else None
            return Remember(told, said.change, private=secret, question=asked)
    return question(words)


def _overheard(
    text: str,
    speaker: str,
    players: Mapping[str, str],
    listener: Addressee,
    today: date,
    final: date | None,
) -> Remember | Forget | None:
    """A lasting fact its author tells the room, not her: "moro no Batel, pertinho do
    escritório", "I live in Alfama"; or one of theirs they take back by name. Only a first person saying what lasts, not an
    opener alone, and nothing asked: she keeps it and answers nothing (it was not to her)."""
    if text.lstrip().startswith("@"):
        return None  # said to someone else by handle: theirs to keep, not hers
    forget = read_forget(text)
    if forget is not None and forget.what and not (forget.everything or forget.private):
        # "e esquece a história do cavaquinho, desisti": a thing of theirs named, taken
        # back in the room's hearing (only what names one fact of theirs goes)
        return replace(forget, line="")

    def others(clause: str) -> bool:
        return bool(others_named(clause, speaker, players, listener.handle))

    if RETORT.match(plain_line(text)):
        return None  # "fala por ti, eu sou é lenta a arrancar": a comeback, not a fact
    if KIDDING.search(plain_line(text)):
        return None  # "já toco o wonderwall. mentira, só 3 acordes": told, then unsaid
    said = telling(text, others)
    if said is None or not said.first_person:  # what it asks the room is not hers to answer
        return None
    if _news_of_today(plain_line(said.fact)):
        return None  # "voltei pra obra hj, bora hexa": the day's news, to the room
    # "a partir de agora sou croata de raiva": the match's mood, to the room; what else
    # the line tells stands ("aqui de Londrina ... mas hj sou holandês")
    pieces = FACT_PIECES.split(said.fact)
    # a feeling about the room is no fact, and the rest is read without it ("amo vocês,
    # tô grávida")
    room = [p for p in pieces if OF_THE_ROOM.search(plain_line(p))]
    if room:
        said = telling(", ".join(p for p in pieces if p not in room), others)
        if said is None or not said.first_person:
            return None
        pieces = FACT_PIECES.split(said.fact)
    # (a plan said after the match it is for is passing too: "o jogo cá, vou fazer um cozido")
    lasting = [
        p
        for at, p in enumerate(pieces)
        if not _passing(plain_line(p))
        and not (at and PLANNED.search(plain_line(f"{pieces[at - 1]}, {p}")))
    ]
    if len(lasting) < len(pieces):
        # beside a side for the match, only where one lives or works or was born stands
        # ("moro em Campinas mas hj sou argentino"; not "sou um homem dividido")
        rest = " ".join(lasting)
        said = telling(rest, others) if HOME_OR_WORK.search(plain_line(rest)) else None
        if said is None or not said.first_person:
            return None
    told = judge(said.fact, speaker, players, today, listener, final)
    if told.kept is None:
        return None
    return Remember(told, said.change, private=told_in_confidence(text), overheard=True)


# A comeback to another's line, opening one's own: what follows is banter
RETORT = re.compile(
    r"\W*(?:fala por (?:ti|voce|vc|si)|speak for yourself|olha quem fala|look who'?s talking"
    r"|diz (?:o|a) (?:que|q))\b"
)
# A line that takes back what it just told, as a joke: "mentira", "just kidding" after it
# ("não é mentira" and "a mentira que ele contou" are no taking back)
KIDDING = re.compile(
    r"(?:[.!?,;\u2026]|\s-)\s*(?:(?:e|eh)\s+)?(?:mentira|brincadeira|zoeira|(?:to|tou|estou)?\s*"
    r"(?:zoando|brincando)|just kidding|jk|j/k|kidding|joking|not really|lol no)(?:\s*[.!,;\u2026]|\s*$|\s+(?:kk+|lol|haha+|rs+)\b)"
)
# The parts of a fact told to the room, each read for what lasts
FACT_PIECES = re.compile(r"(?<=[.!?;])\s+|,\s*|\s+(?:mas|but)\s+")


def _news_of_today(plain: str) -> bool:
    """Whether every part of ``plain`` a first person opens is about today only ("voltei
    pra obra hj"), none saying it lasts ("a partir de hoje estou no turno da manhã")."""
    # ("e" parts only before a today: read plain it is "é" too, "so" is "só")
    parts = re.split(
        r"[,.;!?]\s*|\s+(?:and|mas|but|q|que|pq|porque)\s+|\s+e\s+(?=(?:hoje|hj|today)\b)", plain
    )
    # (a matter of health said of oneself too: "tô com uma enxaqueca hoje" is today's)
    told = [p for p in parts if FIRST_PERSON.match(p.strip()) or _first_person(p.strip())]
    return bool(told) and all(TODAY_ONLY.search(p) and not LASTING.search(p) for p in told)


# What the room hears of a match and is no lasting fact: a side taken for a match, said
# of the moment ("a partir de agora sou croata de raiva", "hj sou holandês"; not "I'm
# Brazilian", "sou professora de inglês"), or rooting for a team of the cup ("torço
# Senegal por pura birra", unless it lasts: "torço pelo Brasil desde sempre"); a plan for
# a match ("tô pensando em fazer um churrasco de final")
HOME_OR_WORK = re.compile(r"\b(?:moro|vivo|live|living|trabalho|work|working|nasci|born)\b")
FOR_NOW = re.compile(
    r"\b(?:hoje|hj|today|tonight|agora|now|por hoje|de raiva|de luto|this time|esta noite)\b"
)
ROOTING = re.compile(
    r"\b(?:torco|torcendo|torcer|rooting for|cheering for|backing|i'?m with|vou de|fechad[oa] com)\b"
)
PLANNED = re.compile(
    r"\b(?:pensando em|planejando|planning|thinking (?:of|about)|vou fazer|going to (?:host|throw"
    r"|make))\b[^.!?]*\b(?:final|semi|semis|jogo|match|game|partida)\b"
    # ... or said after the match it is for: "quer ver o jogo cá na quinta, vou fazer um cozido"
    r"|\b(?:final|semi|semis|jogo|match|game|partida)\b[^.!?]*[.,;]\s*(?:vou fazer|i'?ll make"
    r"|going to (?:host|throw|make|cook))\b"
)
# A feeling about the room, said to it: "I'm scared of you all now", "amo vocês" (not a
# secret told to it: "só vcs sabem: tô grávida")
OF_THE_ROOM = re.compile(
    r"\b(?:scared of|afraid of|love|hate|miss|tired of|sick of|proud of|medo de|orgulho de|amo"
    r"|odeio|adoro)\s+(?:(?:all )?(?:of )?(?:you all|you guys|you lot|y'?all|voces|vcs|vos|a malta))\b"
)


@cache
def _side_taken() -> re.Pattern[str]:
    """ "sou croata", "I'm Dutch", "meu coração é argentino": a side by its people, as the
    team book calls every team's (read plain: lowercase, no accents)."""
    book = TeamBook.standard()
    peoples = {plain_line(w) for words in book.people.values() for w in words if len(w) > 3}
    either = "|".join(re.escape(w) for w in sorted(peoples, key=len, reverse=True))
    return re.compile(
        r"\b(?:sou|i'?m|i am|im|(?:meu )?coracao (?:e|ta|esta)|(?:my )?heart(?:'s| is"
        rf"| belongs to))\s+(?:(?:so|totalmente|todo|toda|all|100%|full)\s+)?(?:{either})\b"
    )


def _passing(plain: str) -> bool:
    """A side taken for the match, or a plan for one: said to the room, nothing lasting."""
    side = bool(_side_taken().search(plain) and FOR_NOW.search(plain))
    rooting = bool(
        ROOTING.search(plain) and TeamBook.standard().named_in(plain) and not LASTING.search(plain)
    )
    return side or rooting or bool(PLANNED.search(plain) or TURNCOAT.search(plain))


# A side switched for a match, owned to: "sou traidor", "I'm a traitor tonight"
TURNCOAT = re.compile(
    r"\b(?:sou|to|tou|estou|i'?m|im|am)\s+(?:a\s+|um\s+|uma\s+)?(?:traidora?"
    r"|traitor|turncoat|vira-casaca)\b"
)


# What the room is told of today only, unless it says it lasts ("a partir de hoje ...")
TODAY_ONLY = re.compile(
    r"\b(?:hj|hoje|today|tonight|esta noite|essa noite|this morning|agora ha pouco|just now"
    r"|amanha|tomorrow)\b"
    # a working day or a day off, said of one day: "I'm off on friday", "trabalho sexta"
    r"|\b(?:i'?m off|im off|off|trabalho|work|working|folgo|de folga)\s+(?:on |na |nesta |esta"
    r" |this |next |no )?(?:segunda|terca|quarta|quinta|sexta|sabado|domingo|monday|tuesday"
    r"|wednesday|thursday|friday|saturday|sunday)\b(?!-feiras)"
    # (not a working week: "trabalho segunda a sexta", "I work monday to friday")
    r"(?!\s*(?:a|to|ate|-)\s*(?:segunda|terca|quarta|quinta|sexta|sabado|domingo|monday|tuesday"
    r"|wednesday|thursday|friday|saturday|sunday))"
    # so many of something at a meal of the day: "tenho 80 reservas ao almoço"
    r"|\b(?:tenho|i'?ve got|i have) \d+ \w+ (?:ao|no|pro|at|for) (?:almoco|jantar|lunch|dinner)\b"
    # an appointment, by its hour: "tenho uma mesa de 12 a chegar as 17h", "at 9am"
    r"|\b(?:as|at) \d{1,2}(?:h\d{0,2}|:\d\d|am|pm| da manha| da tarde| da noite)\b"
    r"|\b\d{1,2}h(?:\d\d)?\b"
)
LASTING = re.compile(
    r"\b(?:a partir de|from now on|from today|desde|since|for good|de vez|pra sempre|para sempre"
    r"|every|todo|toda|todos|todas|anymore|mais|faz \d+|ha \d+|for \d+|\d+ (?:anos|years|meses"
    r"|months)|always|sempre|comeco|start|starting|mudo|move|moving|caso|casamos|marry"
    r"|marrying|getting married|(?:segunda|terca|quarta|quinta|sexta|sabado|domingo)s"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b"
)


def may_tell(text: str) -> bool:
    """Whether a line to the room may hold a fact about its author (a first person
    speaking of themselves, or news opened as such: "mudança de planos: ..."): the lines
    a model hearing the chat is asked to read, besides those touching a fact of theirs
    (``memory.fact_shelf``)."""
    plain = plain_line(text)
    if ROOM_FIRST_PERSON.search(plain) is not None or NEWS.match(plain) is not None:
        return True
    # (past the fillers before it: "e mudança de planos: ...", "ok so fyi ...")
    openers, _ = lead_ins(plain)
    return any(o[g] is not None for o in openers for g in ("open", "change", "topic"))


def lead_ins(plain: str) -> tuple[list[re.Match[str]], int]:
    """The words opening a plain line before what it says, one after another ("ok so fyi
    ...": fillers, openers, a topic), and where what it says starts."""
    found: list[re.Match[str]] = []
    start = 0
    # (sliced, not matched from ``start``: the pattern is anchored with "^")
    while (opener := LEAD_IN.match(plain[start:])) and opener.end():
        found.append(opener)
        start += opener.end()
    return found, start


# A line opening with what changed: "agora só natação", "from now on day shifts"
NEWS = re.compile(
    r"\W*(?:agora|now|these days|hoje em dia|from now on|a partir de|finalmente|finally)\b"
)
# A first person in a line to the room: "I", "my", "we", "eu", "meu", "moro", "sou", "me
# passaram pro turno do dia", "a gente"...
ROOM_FIRST_PERSON = re.compile(
    r"\b(?:i|i'?m|i'?ve|i'?ll|im|ive|my|me|we|we'?re|our|eu|meu|minha|meus|minhas|mim|comigo"
    r"|moro|sou|tenho|nasci|to|tou|estou|vou|fui|nosso|nossa|a gente"
    # a Portuguese verb in the first person, no pronoun needed: "sigo firme na keto", "vivo
    # no paraíso", "faço o turno da manhã", "levei a Bolacha à praia" (-ei: what I did)
    r"|vivo|sigo|faco|ando|fico|uso|bebo|treino|corro|saio|durmo|acordo|entro|estudo|trabalho"
    r"|falo|torco|levo|pratico|toco|canto|danco|cozinho|escrevo|leio|nado|pedalo|tomo|gosto"
    r"|adoro|odeio|prefiro|conheco|passo|\w{2,}ei"
    # where one is, said from there: "aqui em casa em Matosinhos", "cá no Lubango", "here in
    # glasgow"
    r"|(?:aqui|ca) (?:em|no|na|nos|nas)|(?:here|over here) in"
    # how long something has lasted: "sócio do FC Porto há 15 anos", "for 6 years now"
    r"|ha \d+ anos|for (?:\d+|a) (?:years?|yrs)|\d+ (?:years|yrs) now|been \w+ing)\b"
    # news told without its "I": "got the branch manager job", "been learning for a year"
    r"|^\W*(?:got|been|just|finally|started|moved|booked|signed up|passed|bought)\b"
)


@dataclass(frozen=True)
class Telling:
    """A line read as telling her something, before it is judged."""

    fact: str  # the words that tell it, past any opener ("btw", "actually")
    opened: bool  # said with an opener ("fyi", "pra constar"): meant as telling her
    change: bool  # said as a change of mind
    asked: str = ""  # what the rest of the line asks
    first_person: bool = False  # a first person saying what lasts ("moro em", "I'm a")


def telling(words: str, others: Callable[[str], bool] = lambda _: False) -> Telling | None:
    """Whether ``words`` tell her a fact the way people do, without "remember": an opener
    ("fyi", "btw", "pra constar", "anota aí", "entre nós") and a statement, or a first
    person saying what lasts ("moro em Campinas", "I'm a nurse"). The clauses that ask
    are kept apart; so are those ``others`` says name another player ("fabio, faz um pão
    de alho pra mim"): said to them, not about the teller; and those that only ask for
    secrecy ("keep it to yourself pls")."""
    clauses = [c for c in CLAUSES.split(words) if c and c.strip()]
    asked = " ".join(c for c in clauses if _asks(c))
    kept: list[str] = []
    opened = first_person = change = to_others = in_confidence = False
    for clause in (c for c in clauses if not _asks(c)):
        plain = plain_line(clause)
        change = change or CHANGE.search(plain) is not None
        # what follows from a fact told is no part of it, unless it tells one too: "I'm
        # coeliac, so count me out"
        follows = bool(kept) and SO_START.match(clause) is not None
        kin = KIN_NAMED.search(clause) is not None  # "o Pastel é o meu gato": lasts
        openers, start = lead_ins(plain)
        opened = opened or any(o["open"] is not None or o["topic"] is not None for o in openers)
        change = change or any(o["change"] is not None for o in openers)
        plain, clause = plain[start:], clause[start:]
        opened = opened or in_confidence  # "coisa séria e só entre nós: to tratando ansiedade"
        hush = SECRET.search(plain)
        if hush is not None:
            in_confidence = True
            # "I'm pregnant, so keep it to yourself": what is told comes before the plea;
            # "o lance do Buritis fica entre nós" tells nothing new: it hides what was told
            plain, clause = plain[: hush.start()], clause[: hush.start()]
            if not (opened or FIRST_PERSON.match(plain.strip())):
                continue
        clause = CLOSER.sub("", clause).strip(" ,:;-")
        if UNFINISHED.search(plain_line(clause)):
            continue  # "I'm not (ok)": nothing lasting left once its closer is cut
        if others(clause):
            to_others = True
            continue
        if not kept and THEY_OPEN.match(plain) and not OF_ME.search(plain):
            continue  # of someone else, nothing of the teller's before: "he's been off"
        own = kin or _first_person(plain)  # a first person saying what lasts
        if not clause.strip(" .!") or (len(clause.split()) < 2 and not opened and not own):
            continue  # "é só curiosidade, juro": one word told no one anything ("casei!" did)
        if COMING_AND_GOING.fullmatch(plain.strip(" .!")):
            continue  # "voltei.", "cheguei": where they are this minute
        if follows and not own:
            continue
        first_person = first_person or own
        kept.append(clause)
    opened = opened or OPENER_WITHIN.search(plain_line(words)) is not None
    if to_others and not first_person:
        # "for the record diego is a worse tipster than me": about another, all of it
        return Telling(" ".join(c for c in clauses if not _asks(c)), opened, change, asked)
    if not kept or not (opened or first_person):
        return None
    return Telling(" ".join(kept), opened, change, asked, first_person)


# Someone else as a clause's subject: "he's been off all week", "ela anda estranha"
THEY_OPEN = re.compile(r"\W*(?:he|she|they|he's|she's|they're|ele|ela|eles|elas)\b")
# Where one is this minute, said in a word: "voltei", "cheguei", "i'm back"
COMING_AND_GOING = re.compile(
    r"(?:ja )?(?:voltei|cheguei|sai|fui|to de volta|tou de volta|estou de volta|i'?m back|back"
    r"|im here|i'?m here|here)"
)
# ... unless the teller is in it too: "fyi they transferred me to Porto"
OF_ME = re.compile(r"\b(?:i|me|my|mine|eu|mim|meu|minha|meus|minhas|comigo)\b")


# Where, inside a clause, a first person may start: after a comma, "que", "and", "mas"
# ("bruno ja aviso q sou vegana", "did 18k this morning, im training for a marathon")
# (not "e": read without accents it is also "é", "is")
PIECES = re.compile(r",\s*|\s+(?:q|que|and|mas|but|so|entao|porque|pq|onde|where)\s+")


def _first_person(plain: str) -> bool:
    """Whether a clause (read plain) has a first person saying what lasts at one of its
    pieces' starts."""
    pieces = [plain, *PIECES.split(plain)]
    if any(FIRST_PERSON.match(piece.strip()) for piece in pieces):
        return True
    # a matter of health, love, faith or work said of oneself lasts, however said: "tenho
    # enxaqueca crônica", "o meu pai está internado", "I'm going through a divorce"
    found = SENSITIVE.search(plain)
    return (
        found is not None
        and CONFIDING.search(plain) is not None
        and not WISHED.search(plain[: found.start()])
    )


# Someone of one's own named, a pet or kin, said as an aside: "o Pastel é o meu gato",
# "a Bolacha (a minha cadela, para os novos)", "Lucas, my son, ..."
# (a name, not a pronoun nor a word pointing back: "ele é o meu irmão" names no one)
KIN_NAMED = re.compile(
    r"\b(?!(?i:ele|ela|eles|elas|he|she|it|this|that|isso|isto|esse|essa|este|esta|quem|who"
    r"|que|q|and|e|mas|but|sim|yes)\b)[^\W\d_][\w'-]+(?:\s*[^\w\s(,]{1,6})?\s*"
    r"(?:\(\s*(?i:sim,\s*)?|(?P<comma>,\s*)|\s+(?i:é|eh|is)\s+)"
    r"(?i:(?:o\s+|a\s+)?(?:meu|minha|my)\s+(?:gat[oa]|cat|dog|puppy|c[aã]o|cadela|cachorr[oa]"
    r"|filh[oa]|son|daughter|namorad[oa]|boyfriend|girlfriend|mulher|marido|wife|husband"
    r"|noiv[oa]|fianc[eé]\w*|irm[aã]o?|brother|sister|afilhad[oa]|sobrinh[oa]|nephew|niece))\b"
    # (set off by commas, the aside closes: "o Dendê, meu gato, derrubou", "o Theo, meu filho
    # de 4 anos, ..."; not "Golaço, o meu filho até saltou")
    r"(?(comma)(?=\s*(?:[,.;!)]|$|(?:de|of)\s+\d|\d)))"
)
# What is only wished or foreseen ("I'm gonna need therapy after this match"): no fact
WISHED = re.compile(
    r"\b(?:gonna|going to|will|'ll|would|need|needs|vou precisar|preciso|vai dar|vou ter|"
    r"vou acabar|daqui a pouco|quase|almost|like a)\b"
)

# Who a sensitive matter is of, said plainly: the teller, or their family
CONFIDING = re.compile(
    r"^(?:\W*(?:(?:o|a|os|as) )?(?:meu|minha|meus|minhas|my)\b|\W*(?:i'?m|i am|im|i have|i'?ve"
    r"|i was|i got|eu|tenho|estou|tou|to|sou|fui|ando|tive)\b)"
)
